import { useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import { Empty, Problem, StatusPill, Time } from '../components/bits';
import { VirtualList } from '../components/VirtualList';
import { useChanges, useLoaded, useThrottled } from '../hooks';
import { filterRows, mergeRows, NO_FILTER, type MessageFilter } from '../messages-list';
import { navigate } from '../router';
import type { MessageRow } from '../types';

export const PAGE_SIZE = 10_000;
const FIRST_ROWS = 200;
const STATUS_GROUPS = ['PENDING', 'DELIVERED', 'UNDELIVERABLE', 'EXPIRED', 'REJECTED'];

interface Page {
  rows: MessageRow[];
  complete: boolean;
}

/** Every message of the account, SMS and RCS, newest first, updated live as they are sent and change status. */
export function Messages() {
  const [filter, setFilter] = useState<MessageFilter>(NO_FILTER);
  const [page, setPage] = useState<Page>({ rows: [], complete: false });
  const [olderLoading, setOlderLoading] = useState(false);
  const pendingSeqs = useRef(new Set<string>());

  // The newest rows first, so the list shows at once; the rest of the page follows.
  const loaded = useLoaded(async (signal) => {
    const first = await api<{ results: MessageRow[] }>(`/switchboard/1/messages?limit=${FIRST_ROWS}`, { signal });
    setPage({ rows: first.results, complete: first.results.length < FIRST_ROWS });
    const last = first.results[first.results.length - 1];
    if (!last || first.results.length < FIRST_ROWS) return true;
    const rest = await api<{ results: MessageRow[] }>(`/switchboard/1/messages?limit=${PAGE_SIZE - FIRST_ROWS}&before=${last.seq}`, { signal });
    if (!signal.aborted) setPage((p) => ({ rows: mergeRows(p.rows, rest.results), complete: rest.results.length < PAGE_SIZE - FIRST_ROWS }));
    return true;
  }, []);

  const fetchChanged = useThrottled(async () => {
    const seqs = [...pendingSeqs.current];
    pendingSeqs.current.clear();
    for (let i = 0; i < seqs.length; i += 1000) {
      const { results } = await api<{ results: MessageRow[] }>(`/switchboard/1/messages?seqs=${seqs.slice(i, i + 1000).join(',')}`);
      setPage((p) => ({ ...p, rows: mergeRows(p.rows, results) }));
    }
  }, 250);

  // A burst too large to list by seq reloads the page, at most once a second however long it lasts.
  const reloadAll = useThrottled(loaded.reload, 1000);
  useChanges((changes) => {
    if (changes.messagesOverflow) reloadAll();
    else if (changes.messages?.length) {
      for (const seq of changes.messages) pendingSeqs.current.add(seq);
      fetchChanged();
    }
  });

  const shown = useMemo(() => filterRows(page.rows, filter), [page.rows, filter]);

  const loadOlder = async (): Promise<void> => {
    const last = page.rows[page.rows.length - 1];
    if (!last) return;
    setOlderLoading(true);
    try {
      const { results } = await api<{ results: MessageRow[] }>(`/switchboard/1/messages?limit=${PAGE_SIZE}&before=${last.seq}`);
      setPage((p) => ({ rows: [...p.rows, ...results], complete: results.length < PAGE_SIZE }));
    } finally {
      setOlderLoading(false);
    }
  };

  const set = (field: keyof MessageFilter) => (event: Event) => setFilter((f) => ({ ...f, [field]: (event.currentTarget as HTMLInputElement).value }));

  return (
    <section class="view messages" aria-labelledby="messages-title">
      <div class="view-head">
        <h1 id="messages-title">Messages</h1>
        <p class="count" aria-live="polite" data-testid="message-count">
          {shown.length === page.rows.length ? count(page.rows.length) : `${shown.length.toLocaleString()} of ${count(page.rows.length)}`}
        </p>
      </div>
      <form class="filters" role="search" aria-label="Filter messages" onSubmit={(e) => e.preventDefault()}>
        <label>
          Number
          <input type="search" inputMode="tel" value={filter.number} onInput={set('number')} placeholder="+41…" />
        </label>
        <label>
          Text
          <input type="search" value={filter.text} onInput={set('text')} placeholder="contains…" />
        </label>
        <label>
          Status
          <select value={filter.status} onChange={set('status')}>
            <option value="">any</option>
            {STATUS_GROUPS.map((group) => (
              <option key={group} value={group}>
                {group.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <select value={filter.channel} onChange={set('channel')}>
            <option value="">any</option>
            <option value="SMS">SMS</option>
            <option value="RCS">RCS</option>
          </select>
        </label>
        <label>
          Bulk
          <input type="search" value={filter.bulkId} onInput={set('bulkId')} placeholder="bulk id" />
        </label>
      </form>
      <Problem text={loaded.error} />
      {page.rows.length === 0 && !loaded.loading ? (
        <Empty>No messages yet. Send one with the API (POST /sms/3/messages) and it appears here at once.</Empty>
      ) : (
        <VirtualList
          label="Messages, newest first"
          items={shown}
          rowHeight={52}
          rowKey={(row) => row.seq}
          onOpen={(row) => navigate('messages', row.messageId)}
          renderRow={(row) => <MessageLine row={row} />}
        />
      )}
      {!page.complete && page.rows.length > 0 && (
        <button type="button" class="quiet more" onClick={loadOlder} disabled={olderLoading}>
          {olderLoading ? 'Loading…' : 'Load older messages'}
        </button>
      )}
    </section>
  );
}

const count = (n: number): string => `${n.toLocaleString()} ${n === 1 ? 'message' : 'messages'}`;

function MessageLine({ row }: { row: MessageRow }) {
  return (
    <div class="message-line" data-message-id={row.messageId}>
      <span class="when">
        <Time value={row.createdAt} />
      </span>
      <span class={`channel channel-${row.channel.toLowerCase()}`}>{row.failoverOf ? 'SMS ⤷' : row.channel}</span>
      <span class="route">
        <span class="from">{row.from ?? '—'}</span> → <span class="to">{row.to}</span>
      </span>
      <span class="text">{row.text ?? (row.contentType ? `[${row.contentType}]` : '')}</span>
      <span class="status">
        <StatusPill status={row.status} />
      </span>
    </div>
  );
}
