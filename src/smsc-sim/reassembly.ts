import type { InboundPart } from './inbound-decoding.js';

export interface InboundMessage {
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
  firstAt: number;
}

/**
 * Joins the parts of concatenated inbound messages, grouped by their `concat.key` (sender,
 * recipient, reference and part count). A message is complete when every sequence number up to
 * its total has arrived; `expire` hands back what arrived of messages whose other parts never
 * came, so the subscriber's text is not dropped. Times are passed in; nothing here reads a clock.
 */
export class InboundReassembler {
  private readonly groups = new Map<string, Group>();

  get pending(): number {
    return this.groups.size;
  }

  /** The whole message once its last missing part arrives (at once for a single part), else undefined. */
  add(part: InboundPart, now: number): InboundMessage | undefined {
    const concat = part.concat;
    if (!concat || concat.seq < 1 || concat.seq > concat.total) return { from: part.from, to: part.to, text: part.text, smsCount: 1 };
    let group = this.groups.get(concat.key);
    if (!group) {
      group = { parts: new Map(), total: concat.total, from: part.from, to: part.to, firstAt: now };
      this.groups.set(concat.key, group);
    }
    // A part sent again replaces the copy already held.
    group.parts.set(concat.seq, part.text);
    if (group.parts.size < group.total) return undefined;
    this.groups.delete(concat.key);
    return joined(group);
  }

  /** Incomplete messages whose first part came `maxAgeMs` or more ago, joined from the parts that did arrive. */
  expire(now: number, maxAgeMs: number): InboundMessage[] {
    const out: InboundMessage[] = [];
    for (const [key, group] of this.groups) {
      if (now - group.firstAt < maxAgeMs) continue;
      this.groups.delete(key);
      out.push(joined(group));
    }
    return out;
  }
}

function joined(group: Group): InboundMessage {
  const seqs = [...group.parts.keys()].sort((a, b) => a - b);
  return { from: group.from, to: group.to, text: seqs.map((s) => group.parts.get(s)).join(''), smsCount: group.total };
}
