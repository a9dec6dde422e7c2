import { api } from '../api';
import { Attempts } from '../components/Attempts';
import { Fields, Problem, StatusPill, Time } from '../components/bits';
import { RcsMessage } from '../components/RcsMessage';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { href } from '../router';
import type { MessageDetail, RcsContent } from '../types';

/** One message's whole life: what was sent, how the phone counts it, each status and report, each webhook POST. */
export function MessageView({ messageId }: { messageId: string }) {
  const loaded = useLoaded((signal) => api<MessageDetail>(`/switchboard/1/messages/${encodeURIComponent(messageId)}`, { signal }), [messageId]);
  const reload = useThrottled(loaded.reload, 300);
  useChanges((changes) => {
    const seq = loaded.data?.message.seq;
    if (changes.webhooks || changes.messagesOverflow || (seq && changes.messages?.includes(seq))) reload();
  });

  const detail = loaded.data;
  return (
    <section class="view detail" aria-labelledby="message-title">
      <a class="back" href={href('messages')}>
        ← Messages
      </a>
      <Problem text={loaded.error} />
      {detail && (
        <>
          <div class="view-head">
            <h1 id="message-title">
              {detail.message.channel} to {detail.message.to}
            </h1>
            <StatusPill status={detail.message.status} />
          </div>
          <Fields
            rows={[
              ['Message id', <code>{detail.message.messageId}</code>],
              ['Bulk id', <code>{detail.message.bulkId}</code>],
              ['From', detail.message.from],
              ['To', detail.message.to],
              ['Status', `${detail.message.status.groupName} / ${detail.message.status.name}: ${detail.message.status.description}`],
              ['Error', detail.message.error && detail.message.error.id !== 0 ? `${detail.message.error.name}: ${detail.message.error.description}` : undefined],
              [
                'Failover of',
                detail.message.failoverOf ? <a href={href('messages', detail.message.failoverOf)}>{detail.message.failoverOf}</a> : undefined,
              ],
              ['Accepted', <Time value={detail.message.createdAt} full />],
              ['Valid until', detail.validUntil && <Time value={detail.validUntil} full />],
              ['Callback data', detail.callbackData],
              ['Webhook URL', detail.webhookUrl],
            ]}
          />
          <h2>Content</h2>
          {detail.message.channel === 'RCS' ? <RcsMessage content={detail.content as unknown as RcsContent} /> : <SmsContent detail={detail} />}
          <h2>Life</h2>
          <ol class="life">
            {detail.life.map((step, index) => (
              <li key={index}>
                <Time value={step.at} full />
                <span class="life-event">{step.event.toLowerCase()}</span>
                {step.status && <StatusPill status={step.status} />}
                {step.error && step.error.id !== 0 && <span class="life-error">{step.error.name}</span>}
                {step.detail && <span class="life-detail">{step.detail}</span>}
              </li>
            ))}
          </ol>
          <h2>Webhooks</h2>
          {detail.webhooks.length === 0 ? (
            <p class="empty">No report of this message was pushed (no webhook URL and no matching subscription, or it is still pending).</p>
          ) : (
            detail.webhooks.map((item) => (
              <div class="webhook-item" key={item.itemId}>
                <p>
                  <a href={href('webhooks', item.itemId)}>{item.format}</a> to <code>{item.url}</code> — <span class={`pill pill-${item.state}`}>{item.state}</span>
                </p>
                <Attempts attempts={item.attempts} />
              </div>
            ))
          )}
        </>
      )}
    </section>
  );
}

function SmsContent({ detail }: { detail: MessageDetail }) {
  const encoding = detail.encoding;
  const text = detail.message.text ?? '';
  return (
    <div class="sms-content">
      {encoding && (
        <p class="encoding">
          {encoding.encoding} · {encoding.characters} characters · {encoding.parts} {encoding.parts === 1 ? 'part' : 'parts'}
        </p>
      )}
      {encoding?.partTexts && encoding.partTexts.length > 1 ? (
        <ol class="parts">
          {encoding.partTexts.map((part, index) => (
            <li key={index}>
              <span class="part-label">
                Part {index + 1} · {[...part].length} characters
              </span>
              <p class="bubble">{part}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p class="bubble">{text}</p>
      )}
      {encoding?.unicodeCharacters?.length ? (
        <p class="hint">
          Sent as UCS-2 because of: {encoding.unicodeCharacters.map((c) => <kbd key={c}>{c}</kbd>)}
        </p>
      ) : null}
    </div>
  );
}
