import type { MessageRow } from './types';

/** Newest first by seq (decimal strings of the store's sequence, compared as numbers of any length). */
export const newerFirst = (a: MessageRow, b: MessageRow): number =>
  a.seq.length !== b.seq.length ? b.seq.length - a.seq.length : a.seq < b.seq ? 1 : a.seq > b.seq ? -1 : 0;

/** The list with `changed` rows put in: replaced where they were, new ones in seq order. */
export function mergeRows(rows: MessageRow[], changed: MessageRow[]): MessageRow[] {
  if (changed.length === 0) return rows;
  const bySeq = new Map(changed.map((row) => [row.seq, row]));
  const merged = rows.map((row) => {
    const update = bySeq.get(row.seq);
    if (update) bySeq.delete(row.seq);
    return update ?? row;
  });
  if (bySeq.size === 0) return merged;
  return [...bySeq.values(), ...merged].sort(newerFirst);
}

export interface MessageFilter {
  number: string;
  status: string;
  channel: string;
  bulkId: string;
  text: string;
}

export const NO_FILTER: MessageFilter = { number: '', status: '', channel: '', bulkId: '', text: '' };

const digits = (value: string): string => value.replace(/\D/g, '');

/** The rows that pass every filter set; numbers match on their digits, text in any case. */
export function filterRows(rows: MessageRow[], filter: MessageFilter): MessageRow[] {
  const number = digits(filter.number);
  const text = filter.text.trim().toLowerCase();
  const bulkId = filter.bulkId.trim();
  if (!number && !text && !bulkId && !filter.status && !filter.channel) return rows;
  return rows.filter(
    (row) =>
      (!filter.status || row.status.groupName === filter.status) &&
      (!filter.channel || row.channel === filter.channel) &&
      (!bulkId || row.bulkId.includes(bulkId)) &&
      (!number || digits(row.to).includes(number) || (row.from !== undefined && digits(row.from).includes(number))) &&
      (!text || (row.text ?? '').toLowerCase().includes(text)),
  );
}
