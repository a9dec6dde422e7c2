import type { StatusRef } from '../../core/store/types.js';
import type { CarrierReceipt } from '../carrier.js';

/** A receipt's meaning once mapped to Infobip's terms. */
export interface MappedState {
  status: StatusRef;
  errorId: number;
  final: boolean;
}

interface Aggregate {
  carrierMessageId: string;
  partIds: string[];
  finals: Map<string, MappedState>;
  lastIntermediate: string | undefined;
  expiresAt: number;
  /** Rebuilt after a restart: receipts of parts acknowledged before it will not come again. */
  resumed: boolean;
}

const DELIVERED_GROUP = 3;

/**
 * Turns the per-part receipts of long messages into the one status the API shows. Each part of a
 * long message has its own SMSC message id; the message's carrier id is the parts' ids joined by a
 * space, so it survives a restart in the store and `resume` can rebuild this map from it.
 *
 * The message is final when every part is: delivered if every part was, otherwise the status of
 * the first part (in order) that was not. Intermediate part states are passed on once per change.
 * A message rebuilt after a restart ends with the first final part receipt that arrives, because
 * the receipts of parts acknowledged before the restart are not sent again; a failure reported for
 * an earlier part before the restart is then not seen (documented in the README).
 */
export class PartReceipts {
  private readonly byPart = new Map<string, Aggregate>();

  get size(): number {
    return this.byPart.size;
  }

  static joinIds(partIds: string[]): string {
    return partIds.join(' ');
  }

  static splitIds(carrierMessageId: string): string[] {
    return carrierMessageId.split(' ');
  }

  has(partId: string): boolean {
    return this.byPart.has(partId);
  }

  register(partIds: string[], expiresAt: number, resumed = false): string {
    const carrierMessageId = PartReceipts.joinIds(partIds);
    if (partIds.length < 2) return carrierMessageId;
    const aggregate: Aggregate = { carrierMessageId, partIds, finals: new Map(), lastIntermediate: undefined, expiresAt, resumed };
    for (const id of partIds) this.byPart.set(id, aggregate);
    return carrierMessageId;
  }

  /**
   * The receipt to report for a part's receipt: the message's receipt, undefined while other parts
   * are awaited, or the receipt as is when the id is not a part of a known long message.
   */
  onReceipt(partId: string, state: MappedState, at: number): CarrierReceipt | undefined {
    const aggregate = this.byPart.get(partId);
    if (!aggregate) return { carrierMessageId: partId, ...state, at };
    if (!state.final) {
      const key = `${state.status.groupId}:${state.status.id}`;
      if (aggregate.lastIntermediate === key || aggregate.finals.size > 0) return undefined;
      aggregate.lastIntermediate = key;
      return { carrierMessageId: aggregate.carrierMessageId, ...state, at };
    }
    aggregate.finals.set(partId, state);
    if (!aggregate.resumed && aggregate.finals.size < aggregate.partIds.length) return undefined;
    for (const id of aggregate.partIds) this.byPart.delete(id);
    return { carrierMessageId: aggregate.carrierMessageId, ...verdict(aggregate), final: true, at };
  }

  /** Forgets long messages whose receipts never came (the pipeline expires them at their validity). */
  sweep(now: number): void {
    for (const [id, aggregate] of this.byPart) if (aggregate.expiresAt <= now) this.byPart.delete(id);
  }
}

function verdict(aggregate: Aggregate): { status: StatusRef; errorId: number } {
  let delivered: MappedState | undefined;
  for (const id of aggregate.partIds) {
    const state = aggregate.finals.get(id);
    if (!state) continue;
    if (state.status.groupId !== DELIVERED_GROUP) return { status: state.status, errorId: state.errorId };
    delivered ??= state;
  }
  return { status: delivered!.status, errorId: delivered!.errorId };
}
