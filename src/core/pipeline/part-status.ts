import type { MessagePart, PartReceipt, StatusRef } from '../store/types.js';
import { ERROR, STATUS, ref } from './statuses.js';
import { withFields } from '../with-fields.js';

/** A status a long message takes from its parts. */
export interface PartsVerdict {
  status: StatusRef;
  errorId: number;
  at: number;
}

const DELIVERED_GROUP = STATUS.DELIVERED_TO_HANDSET.groupId;

/**
 * The one rule that makes a long message's status from its parts' receipts, the same on every node
 * and after any restart, since it reads only what the store holds:
 *
 * - the message is final once every part has its final receipt: delivered (with the first part's
 *   status) when every part was delivered, otherwise the status and error of the first part, in
 *   part order, that was not — whatever order the receipts came in; its time is the last receipt's;
 * - until then it keeps its status, and an intermediate state (ENROUTE, ACCEPTD) is passed on
 *   once: when a part first reports it, no other part has it, and no part is final yet.
 *
 * Undefined while some part has no final receipt.
 */
export function finalFromParts(parts: readonly MessagePart[]): PartsVerdict | undefined {
  if (parts.length === 0) return undefined;
  let at = 0;
  for (const part of parts) {
    if (!part.receipt?.final) return undefined;
    at = Math.max(at, part.receipt.at);
  }
  const failed = parts.find((part) => part.receipt!.status.groupId !== DELIVERED_GROUP);
  const decisive = (failed ?? parts[0]!).receipt!;
  return { status: decisive.status, errorId: decisive.errorId, at };
}

/**
 * A long message whose validity ran out before every part's final receipt: the parts still without
 * one count as EXPIRED_DLR_UNKNOWN (as a message without any receipt does) and the rule above
 * decides, so a part known to have failed still names the failure.
 */
export function expiredFromParts(parts: readonly MessagePart[], at: number): PartsVerdict {
  const unknown = { status: ref(STATUS.EXPIRED_DLR_UNKNOWN), errorId: ERROR.EC_VALIDITY_EXPIRED.id, final: true, at };
  const settled = parts.map((part) => (part.receipt?.final ? part : withFields(part, { receipt: unknown })));
  const verdict = finalFromParts(settled) ?? { status: unknown.status, errorId: unknown.errorId, at };
  return withFields(verdict, { at });
}

/**
 * The intermediate states to pass on for the receipts that just changed parts (`changed`, in
 * order), given every part as now stored: each state once, when no part is final and no part other
 * than those just changed to it had it already.
 */
export function intermediatesFromParts(parts: readonly MessagePart[], changed: readonly PartReceipt[]): PartsVerdict[] {
  if (parts.some((part) => part.receipt?.final)) return [];
  const out: PartsVerdict[] = [];
  const seen = new Set<string>();
  for (const receipt of changed) {
    if (receipt.final) continue;
    const key = stateKey(receipt);
    if (seen.has(key)) continue;
    seen.add(key);
    const justChanged = new Set(changed.filter((r) => !r.final && stateKey(r) === key).map((r) => r.partId));
    const holders = parts.filter((part) => part.receipt && stateKey(part.receipt) === key);
    if (holders.every((part) => justChanged.has(part.partId))) out.push({ status: receipt.status, errorId: receipt.errorId, at: receipt.at });
  }
  return out;
}

const stateKey = (state: { status: StatusRef }): string => `${state.status.groupId}:${state.status.id}`;
