import { newBulkId } from '../../core/ids.js';
import type { Metrics } from '../../core/metrics.js';
import { STATUS } from '../../core/pipeline/statuses.js';
import type { ApiFamily, NewMessage, Store } from '../../core/store/types.js';
import type { MessageWriter } from './message-writer.js';
import { duplicateEntry, planMessages, type PlannedEntry } from './plan-messages.js';
import type { SendRequest } from './send-request.js';

export interface AcceptOutcome {
  bulkId: string;
  /** One per destination, in request order. */
  entries: PlannedEntry[];
}

const NO_IDS: ReadonlySet<string> = new Set();

/**
 * Accepts a validated send request: assigns ids, rejects what cannot be sent, stores everything
 * through the group-committing writer and answers only after the commit, so an acknowledged
 * message is durable. A storage failure rejects the whole request (the route answers 500).
 */
export class SmsAcceptor {
  // Label children resolved once: label lookup per request is measurable on the hot path.
  private readonly acceptedBy: Record<ApiFamily, { inc(value: number): void }>;

  constructor(private readonly deps: { store: Store; writer: MessageWriter; metrics: Metrics }) {
    this.acceptedBy = {
      sms3: deps.metrics.messagesAccepted.labels('sms', 'sms3'),
      sms2: deps.metrics.messagesAccepted.labels('sms', 'sms2'),
      rcs2: deps.metrics.messagesAccepted.labels('rcs', 'rcs2'),
    };
  }

  async accept(accountId: string, request: SendRequest, now: number): Promise<AcceptOutcome> {
    const callerIds = request.freshIds ? [] : callerMessageIds(request);
    const existingIds =
      callerIds.length === 0 ? NO_IDS : await this.deps.store.messages.existingMessageIds(accountId, callerIds);
    const bulkId = request.bulkId ?? newBulkId();
    const entries = planMessages({ accountId, request, bulkId, now, existingIds });

    const rows: NewMessage[] = [];
    const rowEntry: number[] = [];
    for (let i = 0; i < entries.length; i++) {
      const message = entries[i]!.message;
      if (message !== undefined) {
        rows.push(message);
        rowEntry.push(i);
      }
    }
    const results = await this.deps.writer.write(rows);
    for (let j = 0; j < results.length; j++) {
      // Another request took the id between the existence check and the insert.
      if (results[j] === 'duplicate') {
        const entry = entries[rowEntry[j]!]!;
        entries[rowEntry[j]!] = duplicateEntry(entry.to, entry.messageId, entry.messageCount);
      }
    }
    this.count(request.api, entries);
    return { bulkId, entries };
  }

  private count(api: ApiFamily, entries: PlannedEntry[]): void {
    let accepted = 0;
    for (const entry of entries) {
      if (entry.status === STATUS.PENDING_ACCEPTED) accepted++;
      else this.deps.metrics.messagesRejected.inc({ channel: api === 'rcs2' ? 'rcs' : 'sms', status: entry.status.name });
    }
    if (accepted > 0) this.acceptedBy[api].inc(accepted);
  }
}

function callerMessageIds(request: SendRequest): string[] {
  const ids: string[] = [];
  for (const definition of request.messages) {
    for (const destination of definition.destinations) {
      if (destination.messageId !== undefined) ids.push(destination.messageId);
    }
  }
  return ids;
}
