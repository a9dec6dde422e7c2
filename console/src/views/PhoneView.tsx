import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { CopyButton, Empty, Problem, Time } from '../components/bits';
import { RcsMessage } from '../components/RcsMessage';
import { findCodes } from '../format';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { threadsOf, type Thread } from '../phone-threads';
import { href, navigate } from '../router';
import type { PhoneEntry, RcsContent, Suggestion } from '../types';

const digits = (number: string): string => number.replace(/\D/g, '');

/** A virtual phone as its owner sees it: a conversation per party, and a composer to write back. */
export function PhoneView({ number }: { number: string }) {
  const loaded = useLoaded(
    (signal) => api<{ number: string; messages: PhoneEntry[] }>(`/sandbox/1/phones/${encodeURIComponent(number)}/messages?include=sent&limit=1000`, { signal }),
    [number],
  );
  const reload = useThrottled(loaded.reload, 250);
  useChanges((changes) => {
    if (changes.phonesOverflow || changes.phones?.some((changed) => digits(changed) === digits(number))) reload();
  });

  const threads = loaded.data ? threadsOf(loaded.data.messages) : [];
  const [selected, setSelected] = useState<string>();
  const [newParty, setNewParty] = useState('');
  const thread = threads.find((t) => t.party === selected) ?? threads[0];

  return (
    <section class="view phone" aria-labelledby="phone-title">
      <a class="back" href={href('phones')}>
        ← Phones
      </a>
      <div class="view-head">
        <h1 id="phone-title">+{digits(number)}</h1>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            if (digits(newParty)) setSelected(digits(newParty));
          }}
        >
          <label>
            Write to
            <input type="tel" value={newParty} onInput={(e) => setNewParty(e.currentTarget.value)} placeholder="your number or sender" />
          </label>
          <button type="submit">New conversation</button>
        </form>
      </div>
      <Problem text={loaded.error} />
      <div class="handset">
        <nav class="threads" aria-label="Conversations">
          {threads.length === 0 && <Empty>Nothing received yet.</Empty>}
          {threads.map((t) => (
            <button key={t.party} type="button" class="thread-link" aria-current={t === thread ? 'true' : undefined} onClick={() => setSelected(t.party)}>
              <strong>{t.party}</strong>
              <span class="muted">
                {[...t.channels].join(' · ')} · <Time value={t.lastAt} />
              </span>
            </button>
          ))}
        </nav>
        <Conversation
          key={selected ?? thread?.party ?? ''}
          phone={digits(number)}
          thread={thread && (!selected || thread.party === selected) ? thread : selected ? { party: selected, entries: [], channels: new Set(), lastAt: '' } : undefined}
          onSent={reload}
        />
      </div>
    </section>
  );
}

function Conversation({ phone, thread, onSent }: { phone: string; thread: Thread | undefined; onSent: () => void }) {
  const [text, setText] = useState('');
  const [channel, setChannel] = useState<'SMS' | 'RCS'>(thread?.channels.has('RCS') && !thread.channels.has('SMS') ? 'RCS' : 'SMS');
  const [problem, setProblem] = useState<string>();
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [thread?.entries.length]);

  if (!thread) return <div class="conversation" />;
  const act = async (path: string, body: unknown): Promise<void> => {
    setProblem(undefined);
    try {
      await api(path, { body });
      onSent();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const tap = (suggestion: Suggestion): Promise<void> =>
    act('/sandbox/1/rcs/inbound', { from: phone, to: thread.party, suggestion: { text: suggestion.text, postbackData: suggestion.postbackData } });

  return (
    <div class="conversation" aria-label={`Conversation with ${thread.party}`} role="region">
      <ol class="bubbles">
        {thread.entries.map((entry, index) => (
          <li key={`${entry.messageId ?? ''}-${index}`} class={`bubble-row ${entry.direction === 'sent' ? 'mine' : 'theirs'}`}>
            <Bubble entry={entry} onTap={tap} onSeen={(id) => act(`/sandbox/1/rcs/messages/${encodeURIComponent(id)}/seen`, {})} />
          </li>
        ))}
      </ol>
      <div ref={end} />
      <Problem text={problem} />
      {!/^\+?\d+$/.test(thread.party) ? (
        <p class="hint composer">{thread.party} is a name, not a number: a phone cannot write or call back to it.</p>
      ) : (
      <form
        class="composer"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!text.trim()) return;
          await act(channel === 'RCS' ? '/sandbox/1/rcs/inbound' : '/sandbox/1/sms/inbound', { from: phone, to: thread.party, text });
          setText('');
        }}
      >
        <label class="visually-hidden" for="composer-text">
          Message to {thread.party}
        </label>
        <select aria-label="Send as" value={channel} onChange={(e) => setChannel(e.currentTarget.value as 'SMS' | 'RCS')}>
          <option value="SMS">SMS</option>
          <option value="RCS">RCS</option>
        </select>
        <input id="composer-text" value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder={`Reply to ${thread.party} as the phone`} autoComplete="off" />
        <button type="submit">Send</button>
        <button type="button" class="quiet" title="Call this number from the phone" onClick={() => act('/sandbox/1/calls/inbound', { from: phone, to: thread.party }).then(() => navigate('calls'))}>
          Call
        </button>
      </form>
      )}
    </div>
  );
}

function Bubble({ entry, onTap, onSeen }: { entry: PhoneEntry; onTap: (s: Suggestion) => void; onSeen: (messageId: string) => void }) {
  const content = (entry.content ?? (entry.payload?.content as RcsContent | undefined)) as RcsContent | undefined;
  const received = entry.direction !== 'sent';
  const codes = received ? findCodes(entry.text) : [];
  return (
    <div class={`bubble channel-${entry.channel.toLowerCase()}`}>
      {entry.channel === 'VOICE' ? (
        <p>
          <span aria-hidden="true">📞 </span>Call — heard: “{entry.text}”
        </p>
      ) : content && entry.channel === 'RCS' && received ? (
        <RcsMessage content={content} onTap={onTap} />
      ) : (
        <p>{highlightCodes(entry.text ?? describeSent(entry), codes)}</p>
      )}
      {codes.length > 0 && (
        <p class="codes">
          {codes.map((code) => (
            <span key={code} class="code-chip">
              <mark data-testid="otp">{code}</mark> <CopyButton text={code} label="Copy code" />
            </span>
          ))}
        </p>
      )}
      <p class="meta">
        {entry.channel} · <Time value={entry.receivedAt} />
        {entry.channel === 'RCS' && received && entry.messageId && (
          <button type="button" class="link" onClick={() => onSeen(entry.messageId!)}>
            Mark seen
          </button>
        )}
      </p>
    </div>
  );
}

function describeSent(entry: PhoneEntry): string {
  const payload = entry.payload ?? {};
  if (payload.suggestion) return `Tapped “${(payload.suggestion as { text?: string }).text ?? ''}”`;
  if (payload.location) return '📍 Shared a location';
  return '';
}

/** The text with each one-time code marked. */
function highlightCodes(text: string, codes: string[]) {
  if (codes.length === 0) return text;
  const pattern = new RegExp(`(${codes.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'g');
  return text.split(pattern).map((part, index) => (codes.includes(part) ? <mark key={index}>{part}</mark> : part));
}
