import type { CarrierRouter } from '../../network/carrier.js';
import type { Store } from '../store/types.js';

/** Messages read per page; resuming writes nothing but what a carrier keeps in memory. */
const PAGE = 1000;

/**
 * At start-up: hands each carrier the messages submitted to it that have no final status yet, by
 * any node (a restarted node cannot tell which of its earlier runs' nodes live on; a receipt given
 * twice finds the message final the second time and is dropped).
 */
export async function resumeSubmitted(store: Store, router: CarrierRouter): Promise<void> {
  for (const carrier of router.carriers()) {
    // A carrier whose network reports by itself (an SMSC) needs nothing handed back: any node matches its receipts in the store.
    if (!carrier.resume) continue;
    let afterPk: number | undefined;
    for (;;) {
      const batch = await store.messages.listSubmitted(carrier.name, PAGE, afterPk);
      if (batch.length === 0) break;
      await carrier.resume(batch);
      afterPk = batch[batch.length - 1]!.pk;
      if (batch.length < PAGE) break;
    }
  }
}

/**
 * At a take-over: makes `nodeId` the holder of the messages the stopped nodes (`from`) had submitted
 * and still await a receipt for, and hands them to this node's carriers, which resume them as after
 * a restart. Returns how many were adopted.
 */
export async function adoptSubmitted(
  store: Store,
  router: CarrierRouter,
  take: { from: string[]; silentBefore: number; nodeId: string },
): Promise<number> {
  if (take.from.length === 0) return 0;
  let adopted = 0;
  for (const carrier of router.carriers()) {
    // A carrier whose network reports by itself (an SMSC) needs nothing handed back: any node matches its receipts in the store.
    if (!carrier.resume) continue;
    let afterPk: number | undefined;
    for (;;) {
      const batch = await store.messages.adoptSubmitted(carrier.name, take.from, take.silentBefore, take.nodeId, PAGE, afterPk);
      if (batch.length === 0) break;
      await carrier.resume(batch);
      adopted += batch.length;
      afterPk = batch[batch.length - 1]!.pk;
      if (batch.length < PAGE) break;
    }
  }
  return adopted;
}
