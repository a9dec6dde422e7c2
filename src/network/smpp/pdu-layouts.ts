import smpp from 'smpp';

type Pdu = smpp.PDU;
type FieldType = smpp.FieldType;
type Filter = smpp.FieldFilter;

interface Param {
  key: string;
  type: FieldType;
  filter: Filter | undefined;
}

interface Layout {
  name: string;
  id: number;
  params: Param[];
  paramByKey: Map<string, Param>;
  /** TLV tags renamed for this command (`tlvMap`), e.g. a failed_… variant in a response. */
  tlvRenames: Record<string, string> | undefined;
}

const HEADER_OCTETS = 16;

/**
 * The package's own PDU methods, kept for the test that checks the layouts against them: PDUs
 * encoded or decoded either way must come out the same.
 */
export const packagePduMethods = {
  toBuffer: smpp.PDU.prototype.toBuffer,
  fromBuffer: smpp.PDU.prototype.fromBuffer,
};

/**
 * PDU encoding and decoding from layouts worked out once per command, with the package's own field
 * types and filters. The package finds a PDU's fields anew for every PDU: `for…in` over the PDU and
 * its prototype, a lookup of every key in the command's parameters and in all TLVs, a bound closure
 * per TLV. On the live path that was about a fifth of the engine thread's CPU, every submit_sm, its
 * response, every receipt and its response passing through it; by layout a submit_sm is built and
 * encoded in about half the time, a receipt and a submit response decoded in under half. Same bytes
 * and same decoded fields as the package (test/network/smpp/pdu-layouts.test.ts compares them).
 * The package still builds PDU objects (its constructor keeps their properties fast; objects filled
 * by keyed stores from outside fall into dictionary mode), frames them on the socket and runs
 * sessions.
 */
class PduLayouts {
  private readonly byName = new Map<string, Layout>();
  private readonly byId = new Map<number, Layout>();
  private readonly tlvByTag = new Map<string, smpp.TlvDefinition>();
  private readonly tlvById = new Map<number, smpp.TlvDefinition>();

  constructor() {
    for (const [name, command] of Object.entries(smpp.commands)) {
      const params: Param[] = Object.entries(command.params ?? {}).map(([key, param]) => ({ key, type: param.type, filter: param.filter }));
      const layout: Layout = { name, id: command.id, params, paramByKey: new Map(params.map((p) => [p.key, p])), tlvRenames: command.tlvMap };
      this.byName.set(name, layout);
      this.byId.set(command.id, layout);
    }
    for (const [tag, tlv] of Object.entries(smpp.tlvs)) {
      this.tlvByTag.set(tag, tlv);
      this.tlvById.set(tlv.id, tlv);
    }
  }

  /** As the package's `toBuffer`, filters applied to the PDU in place as it does. */
  encode(pdu: Pdu): Buffer {
    pdu.command_length = HEADER_OCTETS;
    if (pdu.command_status) return this.header(pdu);
    const layout = this.byName.get(pdu.command)!;
    this.filter(pdu, layout, Object.keys(pdu), 'encode');
    const keys = Object.keys(pdu);
    let length = HEADER_OCTETS;
    const tlvKeys: string[] = [];
    for (const key of keys) {
      const param = layout.paramByKey.get(key);
      if (param) {
        length += param.type.size(pdu[key]);
        continue;
      }
      const tlv = this.tlvByTag.get(key);
      if (!tlv) continue;
      tlvKeys.push(key);
      if (tlv.multiple) for (const value of pdu[key] as unknown[]) length += tlv.type.size(value) + 4;
      else length += tlv.type.size(pdu[key]) + 4;
    }
    pdu.command_length = length;
    const buffer = this.header(pdu);
    let offset = HEADER_OCTETS;
    for (const { key, type } of layout.params) {
      type.write(pdu[key], buffer, offset);
      offset += type.size(pdu[key]);
    }
    for (const key of tlvKeys) {
      const tlv = this.tlvByTag.get(key)!;
      const values = tlv.multiple ? (pdu[key] as unknown[]) : [pdu[key]];
      for (const value of values) {
        buffer.writeUInt16BE(tlv.id, offset);
        const size = tlv.type.size(value);
        buffer.writeUInt16BE(size, offset + 2);
        offset += 4;
        tlv.type.write(value, buffer, offset);
        offset += size;
      }
    }
    return buffer;
  }

  /** As the package's `fromBuffer`, into `pdu`. */
  decode(pdu: Pdu, buffer: Buffer): void {
    pdu.command_length = buffer.readUInt32BE(0);
    pdu.command_id = buffer.readUInt32BE(4);
    pdu.command_status = buffer.readUInt32BE(8);
    pdu.sequence_number = buffer.readUInt32BE(12);
    if (pdu.command_length > smpp.PDU.maxLength) {
      throw Error(`PDU length was too large (${pdu.command_length}, maximum is ${smpp.PDU.maxLength}).`);
    }
    const layout = this.byId.get(pdu.command_id);
    if (!layout) {
      pdu.command = 'unknown';
      return;
    }
    pdu.command = layout.name;
    const end = pdu.command_length;
    let offset = HEADER_OCTETS;
    for (const { key, type } of layout.params) {
      if (offset >= end) break;
      const value = type.read(buffer, offset);
      pdu[key] = value;
      offset += type.size(value);
    }
    while (offset + 4 <= end) {
      const id = buffer.readUInt16BE(offset);
      const size = buffer.readUInt16BE(offset + 2);
      offset += 4;
      const tlv = this.tlvById.get(id);
      if (!tlv) {
        pdu[id] = buffer.subarray(offset, offset + size);
        offset += size;
        continue;
      }
      const tag = layout.tlvRenames?.[tlv.tag] || tlv.tag;
      const value = tlv.type.read(buffer, offset, size);
      if (!tlv.multiple) {
        pdu[tag] = value;
      } else {
        if (!pdu[tag]) pdu[tag] = [];
        (pdu[tag] as unknown[]).push(value);
      }
      offset += size;
    }
    this.filter(pdu, layout, Object.keys(pdu), 'decode');
  }

  /** The package's `_filter`, over the keys the PDU has. */
  private filter(pdu: Pdu, layout: Layout, keys: string[], direction: 'encode' | 'decode'): void {
    for (const key of keys) {
      const paramFilter = layout.paramByKey.get(key)?.filter;
      if (paramFilter) {
        pdu[key] = paramFilter[direction].call(pdu, pdu[key]);
        continue;
      }
      const tlv = this.tlvByTag.get(key);
      const filter = tlv?.filter;
      if (!filter) continue;
      const value = pdu[key];
      if (tlv.multiple) {
        (value as unknown[]).forEach((item, i, list) => {
          list[i] = filter[direction].call(pdu, item, true);
        });
      } else if (key === 'message_payload') {
        const shortMessage = pdu.short_message as { message?: { length?: number } } | undefined;
        pdu[key] = filter[direction].call(pdu, value, shortMessage && shortMessage.message && shortMessage.message.length);
      } else {
        pdu[key] = filter[direction].call(pdu, value, true);
      }
    }
  }

  private header(pdu: Pdu): Buffer {
    const buffer = Buffer.alloc(pdu.command_length);
    buffer.writeUInt32BE(pdu.command_length, 0);
    buffer.writeUInt32BE(pdu.command_id, 4);
    buffer.writeUInt32BE(pdu.command_status, 8);
    buffer.writeUInt32BE(pdu.sequence_number, 12);
    return buffer;
  }
}

let layouts: PduLayouts | undefined;

/**
 * Builds the layouts from the package's definitions as they stand (after codec.ts has changed its
 * filters) and makes every PDU, the package's sessions' included, encode and decode by them.
 */
export function useLayoutCodec(): void {
  if (layouts) return;
  const installed = new PduLayouts();
  smpp.PDU.prototype.toBuffer = function toBuffer(this: Pdu): Buffer {
    return installed.encode(this);
  };
  smpp.PDU.prototype.fromBuffer = function fromBuffer(this: Pdu, buffer: Buffer): void {
    installed.decode(this, buffer);
  };
  layouts = installed;
}
