import { decodeInboundPart } from '../network/smpp/inbound-decoding.js';
import { Reassembler } from './reassembly.js';

/** A message as the simulated SMSC received it, long ones reassembled from their parts. */
export interface ReceivedMessage {
  systemId: string;
  from: string;
  fromTon: number;
  fromNpi: number;
  to: string;
  toTon: number;
  toNpi: number;
  text: string;
  dataCoding: number;
  esmClass: number;
  parts: number;
  concat: 'udh8' | 'udh16' | 'sar' | 'payload' | 'none';
  messageIds: string[];
  registeredDelivery: number;
}

/** Collects submit_sm PDUs into ReceivedMessage records. */
export class ReceivedMessages {
  readonly list: ReceivedMessage[] = [];
  private reassembler = new Reassembler();
  private readonly partIds = new Map<string, string[]>();

  constructor(private readonly gsm7Packed: boolean) {}

  add(systemId: string, fields: Record<string, unknown>, messageId: string): void {
    const part = decodeInboundPart(fields, this.gsm7Packed);
    const base = {
      systemId,
      fromTon: Number(fields.source_addr_ton ?? 0),
      fromNpi: Number(fields.source_addr_npi ?? 0),
      toTon: Number(fields.dest_addr_ton ?? 0),
      toNpi: Number(fields.dest_addr_npi ?? 0),
      dataCoding: Number(fields.data_coding ?? 0),
      esmClass: Number(fields.esm_class ?? 0),
      registeredDelivery: Number(fields.registered_delivery ?? 0),
    };
    const short = Buffer.isBuffer(fields.short_message) ? fields.short_message : Buffer.alloc(0);
    if (!part.concat) {
      const concat = short.length === 0 && Buffer.isBuffer(fields.message_payload) ? 'payload' : 'none';
      this.list.push({ ...base, from: part.from, to: part.to, text: part.text, parts: 1, concat, messageIds: [messageId] });
      return;
    }
    const userData = short.length === 0 && Buffer.isBuffer(fields.message_payload) ? fields.message_payload : short;
    const kind = fields.sar_msg_ref_num !== undefined ? 'sar' : udhConcatKind(userData);
    const key = part.concat.key;
    const ids = this.partIds.get(key) ?? [];
    ids[part.concat.seq - 1] = messageId;
    this.partIds.set(key, ids);
    const complete = this.reassembler.add(part);
    if (!complete) return;
    this.partIds.delete(key);
    this.list.push({ ...base, from: complete.from, to: complete.to, text: complete.text, parts: complete.smsCount, concat: kind, messageIds: ids });
  }

  clear(): void {
    this.list.length = 0;
    this.partIds.clear();
    this.reassembler = new Reassembler();
  }
}

/** Which concatenation element the UDH carries: IE 0x08 (16-bit reference) or IE 0x00 (8-bit). */
function udhConcatKind(userData: Buffer): 'udh8' | 'udh16' {
  const end = Math.min(userData.length, 1 + (userData[0] ?? 0));
  for (let i = 1; i + 1 < end; i += 2 + userData[i + 1]!) {
    if (userData[i] === 0x08) return 'udh16';
  }
  return 'udh8';
}
