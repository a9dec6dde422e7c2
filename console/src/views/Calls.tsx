import { useState } from 'preact/hooks';
import { api } from '../api';
import { Empty, Problem, Time } from '../components/bits';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href, navigate } from '../router';
import type { Call } from '../types';

interface Page<T> {
  results: T[];
}

/** Live calls with their state, the calls that ended, and a way to call in from a virtual phone. */
export function Calls() {
  const loaded = useLoaded(async (signal) => {
    const [liveCalls, history] = await Promise.all([
      api<Page<Call>>('/calls/1/calls?size=100', { signal }),
      api<Page<Call>>('/calls/1/calls/history?size=100', { signal }),
    ]);
    return { live: liveCalls.results, history: history.results };
  }, []);
  const reload = useThrottled(loaded.reload, 300);
  useChanges((changes) => {
    if (changes.calls || changes.callsOverflow) reload();
  });

  return (
    <section class="view calls" aria-labelledby="calls-title">
      <div class="view-head">
        <h1 id="calls-title">Calls</h1>
      </div>
      <PlaceCall />
      <Problem text={loaded.error} />
      <h2>Live</h2>
      {loaded.data && loaded.data.live.length === 0 ? <Empty>No call is live.</Empty> : <CallTable calls={loaded.data?.live ?? []} />}
      <h2>Ended</h2>
      {loaded.data && loaded.data.history.length === 0 ? <Empty>No call has ended yet.</Empty> : <CallTable calls={loaded.data?.history ?? []} ended />}
    </section>
  );
}

function CallTable({ calls, ended = false }: { calls: Call[]; ended?: boolean }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Direction</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">State</th>
            {ended && <th scope="col">Duration</th>}
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <tr key={call.id}>
              <td>
                <a href={href('calls', call.id)}>
                  <Time value={call.startTime} />
                </a>
              </td>
              <td>{call.direction.toLowerCase()}</td>
              <td>{call.from}</td>
              <td>{call.to}</td>
              <td>
                <span class={`pill pill-call-${call.state.toLowerCase()}`}>{call.state}</span>
                {call.errorCode && call.errorCode.name !== 'NORMAL_HANGUP' ? <span class="muted"> {call.errorCode.name}</span> : null}
              </td>
              {ended && <td>{call.duration !== undefined ? `${call.duration} s` : ''}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PlaceCall() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string>();
  return (
    <form
      class="inline place-call"
      aria-label="Call in from a virtual phone"
      onSubmit={async (event) => {
        event.preventDefault();
        setProblem(undefined);
        try {
          const call = await api<{ callId?: string; id?: string }>('/sandbox/1/calls/inbound', { body: { from, to } });
          const id = call.callId ?? call.id;
          if (id) navigate('calls', id);
        } catch (error) {
          setProblem(error instanceof Error ? error.message : String(error));
        }
      }}
    >
      <label>
        Call from phone
        <input type="tel" required value={from} onInput={(e) => setFrom(e.currentTarget.value)} placeholder="41793026727" />
      </label>
      <label>
        to your number
        <input type="tel" required value={to} onInput={(e) => setTo(e.currentTarget.value)} placeholder="41790000000" />
      </label>
      <button type="submit">Place inbound call</button>
      <Problem text={problem} />
    </form>
  );
}
