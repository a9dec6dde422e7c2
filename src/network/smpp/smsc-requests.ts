import { refusalOf, STATUS, type Pdu, type SmppSocketSession } from './codec.js';

/**
 * Answers a request the SMSC sends on a bound connection: deliver_sm and data_sm with the status
 * `handle` resolves to (ESME_RX_T_APPN when it fails, so the SMSC sends it again), enquire_link,
 * and unbind (then the connection closes); anything else is refused without closing.
 * Returns true for deliver_sm/data_sm, which the caller counts.
 */
export function answerSmscRequest(session: SmppSocketSession, request: Pdu, handle: (request: Pdu) => Promise<number>): boolean {
  switch (request.command) {
    case 'deliver_sm':
    case 'data_sm':
      void handle(request).then(
        (status) => session.send(request.response({ command_status: status })),
        () => session.send(request.response({ command_status: STATUS.ESME_RX_T_APPN })),
      );
      return true;
    case 'enquire_link':
      session.send(request.response());
      return false;
    case 'unbind':
      session.send(request.response(), undefined, () => session.destroy());
      return false;
    default: {
      const refusal = refusalOf(request);
      if (refusal) session.send(refusal);
      return false;
    }
  }
}
