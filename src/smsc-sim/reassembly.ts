import type { InboundPart } from '../network/smpp/inbound-decoding.js';

export interface ReassembledMessage {
  from: string;
  to: string;
  text: string;
  smsCount: number;
}

interface Group {
  parts: Map<number, string>;
  total: number;
  from: string;
  to: string;
}

/**
 * How the simulator reads the long messages it is sent: joins the parts of concatenated messages,
 * grouped by their `concat.key` (sender, recipient, reference and part count). A message is
 * complete when every sequence number up to its total has arrived.
 */
export class Reassembler {
  private readonly groups = new Map<string, Group>();

  get pending(): number {
    return this.groups.size;
  }

  /** The whole message once its last missing part arrives (at once for a single part), else undefined. */
  add(part: InboundPart): ReassembledMessage | undefined {
    const concat = part.concat;
    if (!concat || concat.seq < 1 || concat.seq > concat.total) return { from: part.from, to: part.to, text: part.text, smsCount: 1 };
    let group = this.groups.get(concat.key);
    if (!group) {
      group = { parts: new Map(), total: concat.total, from: part.from, to: part.to };
      this.groups.set(concat.key, group);
    }
    // A part sent again replaces the copy already held.
    group.parts.set(concat.seq, part.text);
    if (group.parts.size < group.total) return undefined;
    this.groups.delete(concat.key);
    const seqs = [...group.parts.keys()].sort((a, b) => a - b);
    return { from: group.from, to: group.to, text: seqs.map((s) => group.parts.get(s)).join(''), smsCount: group.total };
  }
}
