import type { StoredMessage } from '../store/types.js';

/**
 * Messages of a request sent in order (RCS `messageOrdering`): each but the first is stored held —
 * queued, due at a time that never comes — and names nothing; the one before it names it
 * (`extras.orderedNext`). When that one ends, its final status change releases the next (due at
 * once), or, when it failed and the request stops on failure, the next is cancelled, and so on down
 * the chain.
 */
export const HELD_UNTIL_RELEASED = Number.MAX_SAFE_INTEGER;

export interface OrderedNext {
  messageId: string;
  stopOnFailure: boolean;
}

export function orderedNextOf(message: Pick<StoredMessage, 'extras'>): OrderedNext | undefined {
  const next = message.extras?.orderedNext;
  return typeof next === 'string' ? { messageId: next, stopOnFailure: message.extras?.stopOnFailure === true } : undefined;
}
