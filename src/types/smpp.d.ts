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
    fromBuffer(buffer: Buffer): void;
    command_length: number;
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

  /** How a field's value is read from, written to and measured in a PDU's bytes. */
  export interface FieldType {
    read(buffer: Buffer, offset: number, length?: number): unknown;
    write(value: unknown, buffer: Buffer, offset: number): void;
    size(value: unknown): number;
    default?: unknown;
  }
  /** A field's conversion between its PDU value and the value callers see (dates, texts…). */
  export interface FieldFilter {
    encode(this: PDU, value: unknown, skipUdh?: unknown): unknown;
    decode(this: PDU, value: unknown, skipUdh?: unknown): unknown;
  }
  export interface ParamDefinition {
    type: FieldType;
    default?: unknown;
    filter?: FieldFilter;
  }
  export interface TlvDefinition {
    id: number;
    tag: string;
    type: FieldType;
    multiple?: boolean;
    filter?: FieldFilter;
  }
  export const commands: Record<string, { id: number; params?: Record<string, ParamDefinition>; tlvMap?: Record<string, string> }>;
  export const tlvs: Record<string, TlvDefinition>;
  export const errors: Record<string, number>;
  export const consts: Record<string, Record<string, number>>;
}
