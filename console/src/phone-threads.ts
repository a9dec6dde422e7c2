import type { PhoneEntry } from './types';

/** One conversation on a phone: everything between it and one other party, oldest first. */
export interface Thread {
  party: string;
  entries: PhoneEntry[];
  channels: Set<string>;
  lastAt: string;
}

/** The party on the other end of an entry: the sender of what the phone received, the addressee of what it sent. */
export const partyOf = (entry: PhoneEntry): string => (entry.direction === 'sent' ? entry.to : entry.from) ?? 'unknown';

/** Entries (newest first, as the API lists them) grouped by party; threads with the newest activity first. */
export function threadsOf(entries: PhoneEntry[]): Thread[] {
  const threads = new Map<string, Thread>();
  for (const entry of entries) {
    const party = partyOf(entry);
    let thread = threads.get(party);
    if (!thread) threads.set(party, (thread = { party, entries: [], channels: new Set(), lastAt: entry.receivedAt }));
    thread.entries.push(entry);
    thread.channels.add(entry.channel);
  }
  for (const thread of threads.values()) thread.entries.reverse();
  return [...threads.values()];
}
