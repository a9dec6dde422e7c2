import type { MessagePart, PartReceipt } from './types.js';

/**
 * What a part keeps of several receipts for it in one call: its first final receipt, else its last
 * intermediate one. One per part id, in the order the parts were first named.
 */
export function effectiveReceipts(receipts: readonly PartReceipt[]): PartReceipt[] {
  const byPart = new Map<string, PartReceipt>();
  for (const receipt of receipts) {
    const kept = byPart.get(receipt.partId);
    if (!kept?.final) byPart.set(receipt.partId, receipt);
  }
  return [...byPart.values()];
}

/**
 * Records receipts on the parts they name (one per part: see effectiveReceipts), as both drivers
 * store them: a part's first final receipt is kept for good; an intermediate one replaces what the
 * part had until then, unless it repeats it. Parts are updated in place; returns those changed and
 * the receipts that changed them, in order.
 */
export function applyPartReceipts(
  partsById: ReadonlyMap<string, MessagePart>,
  receipts: readonly PartReceipt[],
): { changedParts: Set<MessagePart>; changedReceipts: PartReceipt[] } {
  const changedParts = new Set<MessagePart>();
  const changedReceipts: PartReceipt[] = [];
  for (const receipt of receipts) {
    const part = partsById.get(receipt.partId);
    if (!part) continue;
    const current = part.receipt;
    if (current?.final) continue;
    if (!receipt.final && current && sameState(current, receipt)) continue;
    part.receipt = { status: receipt.status, errorId: receipt.errorId, final: receipt.final, at: receipt.at };
    changedParts.add(part);
    changedReceipts.push(receipt);
  }
  return { changedParts, changedReceipts };
}

const sameState = (a: PartReceipt | NonNullable<MessagePart['receipt']>, b: PartReceipt): boolean =>
  a.status.groupId === b.status.groupId && a.status.id === b.status.id && a.errorId === b.errorId;
