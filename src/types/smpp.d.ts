// The parts of the `smpp` package (0.5.x, untyped) that src/network/smpp/codec.ts relies on.
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export class PDU {
    constructor(command: string | Buffer, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
    [field: string]: unknown;
    static maxLength: number;
  }

  export class Session extends EventEmitter {
    constructor(options: Record<string, unknown>);
    socket: Socket;
    paused: boolean;
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;

  export const commands: Record<string, { id: number; params?: Record<string, { filter?: unknown }> }>;
  export const tlvs: Record<string, { id: number; filter?: unknown }>;
  export const errors: Record<string, number>;
  export const consts: Record<string, Record<string, number>>;
}
