import { api } from '../api';
import { Empty, Problem, Time } from '../components/bits';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href } from '../router';
import type { Application, PinRow } from '../types';

/** 2FA applications, and for the chosen one the PINs it sent: to whom, how, and how each ended. */
export function Verifications({ applicationId }: { applicationId: string | undefined }) {
  const apps = useLoaded((signal) => api<Application[]>('/2fa/2/applications', { signal }), []);
  const chosen = applicationId ?? apps.data?.[0]?.applicationId;
  const pins = useLoaded(
    (signal) => (chosen ? api<{ results: PinRow[] }>(`/switchboard/1/2fa/applications/${encodeURIComponent(chosen)}/pins?limit=500`, { signal }) : Promise.resolve({ results: [] })),
    [chosen],
  );
  const reload = useThrottled(pins.reload, 300);
  useChanges((changes) => {
    if (chosen && (changes.verificationsOverflow || changes.verifications?.includes(chosen))) reload();
  });

  return (
    <section class="view verifications" aria-labelledby="verifications-title">
      <div class="view-head">
        <h1 id="verifications-title">Verifications</h1>
      </div>
      <Problem text={apps.error ?? pins.error} />
      {apps.data && apps.data.length === 0 && <Empty>No 2FA application yet. Create one with POST /2fa/2/applications.</Empty>}
      <div class="split">
        <nav class="apps" aria-label="Applications">
          {apps.data?.map((app) => (
            <a key={app.applicationId} href={href('verifications', app.applicationId)} aria-current={app.applicationId === chosen ? 'page' : undefined}>
              <strong>{app.name}</strong>
              <span class="muted">{app.enabled ? app.applicationId : `${app.applicationId} · disabled`}</span>
            </a>
          ))}
        </nav>
        <div class="table-wrap">
          {pins.data && pins.data.results.length === 0 ? (
            <Empty>No PIN sent by this application yet.</Empty>
          ) : (
            <table aria-label="PINs sent">
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">To</th>
                  <th scope="col">By</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Wrong guesses</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                {pins.data?.results.map((pin) => (
                  <tr key={pin.pinId}>
                    <td>
                      <Time value={pin.sentAt} />
                    </td>
                    <td>
                      <a href={href('phones', pin.msisdn)}>{pin.msisdn}</a>
                    </td>
                    <td>{pin.channel === 'VOICE' ? 'call' : pin.messageId ? <a href={href('messages', pin.messageId)}>SMS</a> : 'SMS'}</td>
                    <td>
                      <span class={`pill pill-pin-${pin.state.toLowerCase()}`}>{pin.state.replaceAll('_', ' ').toLowerCase()}</span>
                    </td>
                    <td>
                      {pin.wrongAttempts} ({pin.attemptsRemaining} left)
                    </td>
                    <td>
                      <Time value={pin.expiresAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}
