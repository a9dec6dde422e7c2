import net from 'node:net';
import tls from 'node:tls';
import smpp from 'smpp';
import type { Clock } from '../../core/clock.js';
import { useLayoutCodec } from './pdu-layouts.js';

/**
 * The one module that touches the `smpp` package (with pdu-layouts.ts, which encodes and decodes
 * PDUs by the package's definitions): PDU encoding and decoding over a socket, and the listening
 * side. Everything the package lacks (windows, timeouts, reconnects, segmentation, text encoding)
 * is ours and lives beside this file.
 *
 * The package would encode and decode `short_message` and `message_payload` itself, guessing an
 * alphabet from `data_coding` and splitting off the UDH; its GSM table and its choices differ from
 * the ones the API counted parts with. So the filters are removed once, here, and both fields travel
 * as raw bytes in both directions.
 */
for (const command of Object.values(smpp.commands)) {
  if (command.params?.short_message) delete command.params.short_message.filter;
}
if (smpp.tlvs.message_payload) delete smpp.tlvs.message_payload.filter;
useLayoutCodec();

export type Pdu = smpp.PDU;
export type SmppSocketSession = smpp.Session;
export type SmppServer = smpp.Server;

/** command_status values used by this project (SMPP 3.4, §5.1.3). */
export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVESMCLASS: 0x43,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RX_T_APPN: 0x64,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RINVOPTPARSTREAM: 0xc0,
  ESME_ROPTPARNOTALLWD: 0xc1,
  ESME_RINVPARLEN: 0xc2,
  ESME_RINVDCS: 0x104,
  ESME_RUNKNOWNERR: 0xff,
} as const;

/** esm_class bits. */
export const ESM_CLASS = {
  /** Message type bits 2–5: 0x04 = SMSC delivery receipt, 0x20 = intermediate delivery notification. */
  TYPE_MASK: 0x3c,
  MC_DELIVERY_RECEIPT: 0x04,
  INTERMEDIATE_NOTIFICATION: 0x20,
  UDHI: 0x40,
} as const;

export const TON = { UNKNOWN: 0, INTERNATIONAL: 1, NATIONAL: 2, NETWORK_SPECIFIC: 3, SUBSCRIBER: 4, ALPHANUMERIC: 5, ABBREVIATED: 6 } as const;
export const NPI = { UNKNOWN: 0, ISDN: 1 } as const;

/** A PDU to send: the command name and its fields (mandatory parameters and TLVs by their spec names). */
export function pdu(command: string, fields: Record<string, unknown> = {}): Pdu {
  return new smpp.PDU(command, fields);
}

/**
 * The answer to a request this side does not handle: its `_resp` with ESME_RINVCMDID, or a
 * generic_nack for commands that have no response PDU (or are unknown). undefined for
 * alert_notification, which is never answered.
 */
export function refusalOf(request: Pdu): Pdu | undefined {
  if (request.command === 'alert_notification') return undefined;
  const response = `${request.command}_resp`;
  if (request.command !== 'unknown' && smpp.commands[response]) return request.response({ command_status: STATUS.ESME_RINVCMDID });
  return new smpp.PDU('generic_nack', { sequence_number: request.sequence_number, command_status: STATUS.ESME_RINVCMDID });
}

export interface SmppConnectOptions {
  host: string;
  port: number;
  /** TLS options when the SMSC speaks SMPP over TLS; undefined for plain TCP. */
  tls?: tls.ConnectionOptions;
  connectTimeoutMs: number;
  /** Measures `connectTimeoutMs`. */
  clock: Clock;
}

/**
 * Opens a TCP (or TLS) connection and wraps it in a PDU session once connected. Rejects on
 * connection errors and when `connectTimeoutMs` of the clock's time passes first.
 */
export function connectSession(options: SmppConnectOptions): Promise<SmppSocketSession> {
  return new Promise((resolve, reject) => {
    const socket = options.tls
      ? tls.connect({ ...options.tls, host: options.host, port: options.port, servername: options.tls.servername ?? serverName(options.host) })
      : net.connect({ host: options.host, port: options.port });
    socket.setNoDelay(true);
    const timer = options.clock.setTimer(options.connectTimeoutMs, () => fail(new Error(`connection to ${options.host}:${options.port} timed out`)));
    const fail = (error: Error): void => {
      timer.cancel();
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once(options.tls ? 'secureConnect' : 'connect', () => {
      timer.cancel();
      socket.off('error', fail);
      resolve(coalescingWrites(new smpp.Session({ socket })));
    });
  });
}

export interface SmppServerOptions {
  /** PEM key and certificate: the server speaks SMPP over TLS. */
  key?: string | Buffer;
  cert?: string | Buffer;
}

/** A listening SMPP server; `onSession` gets each accepted connection as a PDU session. */
export function createSmppServer(options: SmppServerOptions, onSession: (session: SmppSocketSession) => void): SmppServer {
  const serverOptions: Record<string, unknown> = {};
  if (options.key !== undefined && options.cert !== undefined) {
    serverOptions.key = options.key;
    serverOptions.cert = options.cert;
  }
  return smpp.createServer(serverOptions, (session) => {
    session.socket.setNoDelay(true);
    onSession(coalescingWrites(session));
  });
}

/**
 * PDUs sent in one turn of the event loop leave in one write: a window of submit_sm, or the
 * deliver_sm_resp of a batch of receipts stored together, would otherwise cost a system call each,
 * which measured as the largest single cost of the live path. The socket is corked at the turn's
 * first send and uncorked after the turn's promise callbacks, so no PDU waits for a later turn.
 */
function coalescingWrites(session: SmppSocketSession): SmppSocketSession {
  const socket = session.socket;
  const send = session.send.bind(session);
  let corked = false;
  const uncork = (): void => {
    corked = false;
    socket.uncork();
  };
  session.send = (request: Pdu, ...rest: unknown[]): boolean => {
    if (!corked && socket.writable) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return (send as (request: Pdu, ...rest: unknown[]) => boolean)(request, ...rest);
  };
  return session;
}

/** SNI must not be an IP address. */
function serverName(host: string): string | undefined {
  return net.isIP(host) === 0 ? host : undefined;
}
