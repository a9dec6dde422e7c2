import type { MessagePart, PartReceipt } from './types.js';

/**
 * Records receipts on the parts they name, in order, as both drivers store them: a part's first
 * final receipt is kept for good; an intermediate one replaces what the part had until then, unless
 * it repeats it. Parts are updated in place; returns those changed and the receipts that changed
 * them, in order.
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
