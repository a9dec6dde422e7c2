import type { Clock } from '../../core/clock.js';
import { STATUS_GROUPS } from '../../core/pipeline/statuses.js';
import type { Store, StoredMessage } from '../../core/store/types.js';
import type { RcsEvents, RcsInboundContent } from '../rcs-network.js';

export type HandsetSeen =
  /** No RCS message of the account has this id (an SMS, another account's, none at all). */
  | { kind: 'unknown' }
  /** The message never reached the handset, so it cannot be seen there. */
  | { kind: 'not-on-handset'; why: string }
  | { kind: 'reported'; messageId: string; seenAt: number; pushed: number };

export interface HandsetWritten {
  messageId: string;
  from: string;
  to: string;
  receivedAt: number;
  content: RcsInboundContent;
  pairedMessageId?: string;
  pushed: number;
}

const DELIVERED_GROUP = STATUS_GROUPS.indexOf('DELIVERED');

/**
 * The end users of the sandbox's virtual phones, played by whoever calls the sandbox API: they open
 * RCS messages and write to RCS senders. What they do is reported through the RcsEvents the
 * network was started with, as a provider reports its users', so the RCS channel handles both alike.
 */
export class SandboxHandset {
  private events: RcsEvents | undefined;

  constructor(private readonly deps: { store: Store; clock: Clock }) {}

  /** Reports go to `events` from now on; undefined while the network is stopped. */
  attach(events: RcsEvents | undefined): void {
    this.events = events;
  }

  /**
   * The user opens an RCS message of the account's. It can be seen once it reached the phone:
   * delivered, or still awaiting its delivery report (a receipt may come after the user opened
   * it).
   */
  async see(accountId: string, messageId: string): Promise<HandsetSeen> {
    const message = await this.deps.store.messages.get(accountId, messageId);
    if (!message || message.channel !== 'RCS') return { kind: 'unknown' };
    const why = notOnHandset(message);
    if (why !== undefined) return { kind: 'not-on-handset', why };
    const seenAt = this.deps.clock.now();
    const [handled] = await this.started().seen([{ accountId, messageId, seenAt }]);
    if (!handled) return { kind: 'unknown' };
    return { kind: 'reported', messageId: handled.messageId, seenAt, pushed: handled.pushed };
  }

  /** The user of phone `from` writes to the account's RCS sender `to`. */
  async write(accountId: string, from: string, to: string, content: RcsInboundContent): Promise<HandsetWritten> {
    const receivedAt = this.deps.clock.now();
    const [handled] = await this.started().inbound([{ accountId, from, to, content, receivedAt }]);
    const written: HandsetWritten = { messageId: handled!.messageId, from, to, receivedAt, content, pushed: handled!.pushed };
    if (handled!.pairedMessageId !== undefined) written.pairedMessageId = handled!.pairedMessageId;
    // The phone keeps what it sent, as it keeps what it received.
    await this.deps.store.phones.record({
      accountId,
      number: from,
      channel: 'RCS',
      direction: 'sent',
      to,
      ...('text' in content ? { text: content.text } : {}),
      messageId: written.messageId,
      receivedAt,
      payload: { content },
    });
    return written;
  }

  private started(): RcsEvents {
    if (!this.events) throw new Error('the sandbox network is not running');
    return this.events;
  }
}

function notOnHandset(m: StoredMessage): string | undefined {
  if (m.state === 'queued' || m.state === 'dispatching') return 'has not been sent yet';
  if (m.state === 'final' && m.status.groupId !== DELIVERED_GROUP) return 'was not delivered';
  return undefined;
}
