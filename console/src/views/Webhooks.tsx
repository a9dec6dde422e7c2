import { useState } from 'preact/hooks';
import { api } from '../api';
import { Empty, Problem, Time } from '../components/bits';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href } from '../router';
import type { WebhookItem, WebhookTarget } from '../types';

/** Where webhooks go and how it goes: failing targets first, then every item with its state. */
export function Webhooks() {
  const [url, setUrl] = useState<string>();
  const [state, setState] = useState('');
  const loaded = useLoaded(
    async (signal) => {
      const query = new URLSearchParams({ limit: '500' });
      if (url) query.set('url', url);
      if (state) query.set('state', state);
      const [targets, items] = await Promise.all([
        api<{ results: WebhookTarget[] }>('/switchboard/1/webhooks/targets', { signal }),
        api<{ results: WebhookItem[] }>(`/switchboard/1/webhooks/items?${query}`, { signal }),
      ]);
      return { targets: targets.results, items: items.results };
    },
    [url, state],
  );
  const reload = useThrottled(loaded.reload, 500);
  useChanges((changes) => {
    if (changes.webhooks) reload();
  });

  return (
    <section class="view webhooks" aria-labelledby="webhooks-title">
      <div class="view-head">
        <h1 id="webhooks-title">Webhooks</h1>
      </div>
      <Problem text={loaded.error} />
      <h2>Targets</h2>
      {loaded.data && loaded.data.targets.length === 0 ? (
        <Empty>Nothing has been pushed yet. Give a message a webhook URL, or subscribe with the Subscriptions API.</Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Failed</th>
                <th scope="col">Pending</th>
                <th scope="col">Delivered</th>
                <th scope="col">Last attempt</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data?.targets.map((target) => (
                <tr key={target.url} class={target.failed > 0 || target.lastOutcome === 'retry' ? 'failing' : ''}>
                  <td>
                    <button type="button" class="link" aria-pressed={url === target.url} onClick={() => setUrl(url === target.url ? undefined : target.url)}>
                      {target.url}
                    </button>
                  </td>
                  <td>{target.failed}</td>
                  <td>{target.pending}</td>
                  <td>{target.delivered}</td>
                  <td>
                    <Time value={target.lastAttemptAt} />{' '}
                    {target.lastHttpStatus !== undefined ? `HTTP ${target.lastHttpStatus}` : target.lastError}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="view-head">
        <h2>Items{url ? ` to ${url}` : ''}</h2>
        <label>
          State
          <select value={state} onChange={(e) => setState(e.currentTarget.value)}>
            <option value="">any</option>
            <option value="pending">pending</option>
            <option value="failed">failed</option>
            <option value="delivered">delivered</option>
          </select>
        </label>
      </div>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">What</th>
              <th scope="col">State</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next / last</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data?.items.map((item) => (
              <tr key={item.id}>
                <td>
                  <a href={href('webhooks', item.id)}>#{item.id}</a>
                </td>
                <td>
                  {item.format} × {item.itemCount}
                  <div class="muted small">{item.url}</div>
                </td>
                <td>
                  <span class={`pill pill-${item.state}`}>{item.state}</span>
                </td>
                <td>{item.attempts}</td>
                <td>
                  {item.state === 'pending' ? <Time value={item.dueAt} /> : null} <span class="muted">{item.lastError}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
