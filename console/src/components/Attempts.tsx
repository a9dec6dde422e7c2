import { duration, prettyJson } from '../format';
import type { WebhookAttempt } from '../types';
import { Time } from './bits';

/** A webhook item's POSTs, oldest first: when, what came back, how long it took. */
export function Attempts({ attempts }: { attempts: WebhookAttempt[] }) {
  if (attempts.length === 0) return <p class="empty">No attempt yet.</p>;
  return (
    <div class="table-wrap">
      <table class="attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Response</th>
            <th scope="col">Took</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.id} class={`outcome-${attempt.outcome}`}>
              <td>{attempt.attempt}</td>
              <td>
                <Time value={attempt.startedAt} full />
              </td>
              <td>
                {attempt.httpStatus !== undefined ? <span class="http-status">HTTP {attempt.httpStatus}</span> : <span class="http-error">{attempt.error ?? 'no response'}</span>}
                {attempt.responseBody ? (
                  <details>
                    <summary>Response body</summary>
                    <pre class="code">{prettyJson(attempt.responseBody)}</pre>
                  </details>
                ) : null}
              </td>
              <td>{duration(attempt.durationMs)}</td>
              <td>
                <span class={`pill pill-${attempt.outcome}`}>{attempt.outcome}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
