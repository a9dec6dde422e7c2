import { ERROR, STATUS, ref } from '../../core/pipeline/statuses.js';
import type { Carrier, OutboundMessage, SubmitOutcome } from '../carrier.js';

/** Where destinations that no route covers go: refused, final, REJECTED_ROUTE_NOT_AVAILABLE. */
export class NoRouteCarrier implements Carrier {
  readonly name = 'no-route';

  async start(): Promise<void> {}

  async submit(messages: OutboundMessage[]): Promise<SubmitOutcome[]> {
    return messages.map(({ pk, accountId }) => ({
      pk,
      accountId,
      ok: false,
      retryable: false,
      status: ref(STATUS.REJECTED_ROUTE_NOT_AVAILABLE),
      errorId: ERROR.NO_ERROR.id,
    }));
  }

  async resume(): Promise<void> {}

  async stop(): Promise<void> {}
}
