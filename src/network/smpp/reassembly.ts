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
 * Joins the parts of concatenated inbound messages, keyed by sender, recipient and reference. A
 * message is complete when every sequence number up to its total has arrived; `expire` hands back
 * what arrived of messages whose other parts never came, so the subscriber's text is not dropped.
 */
export class InboundReassembler {
  private readonly groups = new Map<string, Group>();

  get pending(): number {
    return this.groups.size;
  }

  add(part: InboundPart, now: number): InboundMessage | undefined {
    const concat = part.concat;
    if (!concat) return { from: part.from, to: part.to, text: part.text, smsCount: 1 };
    const key = `${part.from}\u0000${part.to}\u0000${concat.reference}\u0000${concat.total}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { parts: new Map(), total: concat.total, from: part.from, to: part.to, firstAt: now };
      this.groups.set(key, group);
    }
    group.parts.set(concat.seq, part.text);
    if (group.parts.size < group.total) return undefined;
    this.groups.delete(key);
    return joined(group);
  }

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
