import { useState } from 'preact/hooks';
import { api } from '../api';
import { Attempts } from '../components/Attempts';
import { Fields, Problem, Time } from '../components/bits';
import { prettyJson } from '../format';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href } from '../router';
import type { WebhookAttempt, WebhookItem } from '../types';

/** One webhook item: the body it POSTs, each attempt and its response, and a button to try again now. */
export function WebhookItemView({ itemId }: { itemId: string }) {
  const loaded = useLoaded(
    (signal) => api<{ item: WebhookItem; attempts: WebhookAttempt[] }>(`/switchboard/1/webhooks/items/${encodeURIComponent(itemId)}`, { signal }),
    [itemId],
  );
  const reload = useThrottled(loaded.reload, 300);
  useChanges((changes) => {
    if (changes.webhooks) reload();
  });
  const [problem, setProblem] = useState<string>();
  const item = loaded.data?.item;

  return (
    <section class="view detail" aria-labelledby="item-title">
      <a class="back" href={href('webhooks')}>
        ← Webhooks
      </a>
      <Problem text={loaded.error ?? problem} />
      {item && (
        <>
          <div class="view-head">
            <h1 id="item-title">Webhook item #{item.id}</h1>
            <span class={`pill pill-${item.state}`}>{item.state}</span>
            {item.state !== 'delivered' && (
              <button
                type="button"
                onClick={async () => {
                  setProblem(undefined);
                  try {
                    await api(`/switchboard/1/webhooks/items/${encodeURIComponent(item.id)}/retry`, { body: {} });
                    reload();
                  } catch (error) {
                    setProblem(error instanceof Error ? error.message : String(error));
                  }
                }}
              >
                Retry now
              </button>
            )}
          </div>
          <Fields
            rows={[
              ['URL', <code>{item.url}</code>],
              ['Carries', `${item.itemCount} × ${item.format}`],
              ['Ordered stream', item.stream],
              ['Attempts', String(item.attempts)],
              ['Next attempt', item.state === 'pending' ? <Time value={item.dueAt} full /> : undefined],
              ['Last error', item.lastError],
            ]}
          />
          <h2>Attempts</h2>
          <Attempts attempts={loaded.data!.attempts} />
          <h2>Request body</h2>
          <pre class="code">{prettyJson(item.requestBody)}</pre>
        </>
      )}
    </section>
  );
}
