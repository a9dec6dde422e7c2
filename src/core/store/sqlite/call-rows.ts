import type { CallRecord, CallTimer } from '../types.js';
import { parseJson, parseJsonOrUndefined } from './shared.js';

export interface CallRow {
  pk: number;
  body: string;
}

export interface TimerRow {
  id: number;
  account_id: string;
  call_pk: number;
  call_id: string;
  kind: string;
  due_at: number;
  data: string | null;
}

export const toCall = (row: CallRow): CallRecord => ({ ...parseJson<Omit<CallRecord, 'pk'>>(row.body), pk: row.pk });

export const toTimer = (row: TimerRow): CallTimer => {
  const timer: CallTimer = { id: row.id, accountId: row.account_id, callPk: row.call_pk, callId: row.call_id, kind: row.kind, dueAt: row.due_at };
  const data = parseJsonOrUndefined<Record<string, unknown>>(row.data);
  if (data) timer.data = data;
  return timer;
};
