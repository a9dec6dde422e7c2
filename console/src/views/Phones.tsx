import { api } from '../api';
import { Empty, Problem, Time } from '../components/bits';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href, navigate } from '../router';
import type { PhoneSummary } from '../types';
import { useState } from 'preact/hooks';

/** Every virtual phone that received or sent something, most recent first. */
export function Phones() {
  const loaded = useLoaded((signal) => api<{ phones: PhoneSummary[] }>('/sandbox/1/phones?limit=1000', { signal }), []);
  const reload = useThrottled(loaded.reload, 500);
  useChanges((changes) => {
    if (changes.phones || changes.phonesOverflow) reload();
  });
  const [number, setNumber] = useState('');

  return (
    <section class="view phones" aria-labelledby="phones-title">
      <div class="view-head">
        <h1 id="phones-title">Phones</h1>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            const digits = number.replace(/[^\d]/g, '');
            if (digits) navigate('phones', digits);
          }}
        >
          <label>
            Open a phone
            <input type="tel" value={number} onInput={(e) => setNumber(e.currentTarget.value)} placeholder="41793026727" />
          </label>
          <button type="submit">Open</button>
        </form>
      </div>
      <Problem text={loaded.error} />
      {loaded.data && loaded.data.phones.length === 0 && <Empty>No virtual phone has received anything yet.</Empty>}
      <ul class="cards" aria-label="Virtual phones">
        {loaded.data?.phones.map((phone) => (
          <li key={phone.number}>
            <a class="card-link" href={href('phones', phone.number)}>
              <strong class="number">+{phone.number.replace(/^\+/, '')}</strong>
              <span class="muted">
                {phone.received} received · {phone.sent} sent · <Time value={phone.lastAt} />
              </span>
              {phone.lastText && <span class="last-text">{phone.lastText}</span>}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
