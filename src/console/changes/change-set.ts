/**
 * What changed for one account since the last event of the live feed: ids of messages (their
 * `seq`), phones, calls and 2FA applications, and whether any webhook item did. A set never holds
 * more than MAX_IDS ids of a kind; past that it says so (`…Overflow`), and the console reloads
 * that list instead of fetching each.
 */
export const MAX_IDS = 1000;

/** As the feed sends it (and as it crosses threads and nodes): only the keys that changed. */
export interface WireChanges {
  messages?: number[];
  messagesOverflow?: true;
  phones?: string[];
  phonesOverflow?: true;
  calls?: string[];
  callsOverflow?: true;
  webhooks?: true;
  verifications?: string[];
  verificationsOverflow?: true;
}

/** Changes of several accounts. */
export type ChangeBatch = Array<[accountId: string, changes: WireChanges]>;

type IdKind = 'messages' | 'phones' | 'calls' | 'verifications';

/** A bounded set of ids that remembers it overflowed. */
class IdSet<T> {
  readonly ids = new Set<T>();
  overflow = false;

  add(id: T): void {
    if (this.overflow || this.ids.has(id)) return;
    if (this.ids.size >= MAX_IDS) {
      this.overflow = true;
      this.ids.clear();
      return;
    }
    this.ids.add(id);
  }

  merge(ids: readonly T[] | undefined, overflow: boolean | undefined): void {
    if (overflow) {
      this.overflow = true;
      this.ids.clear();
    }
    if (ids) for (const id of ids) this.add(id);
  }
}

export class PendingChanges {
  private readonly messages = new IdSet<number>();
  private readonly phones = new IdSet<string>();
  private readonly calls = new IdSet<string>();
  private readonly verifications = new IdSet<string>();
  private webhooks = false;

  message(pk: number): void {
    this.messages.add(pk);
  }

  phone(number: string): void {
    this.phones.add(number);
  }

  call(callId: string): void {
    this.calls.add(callId);
  }

  verification(applicationId: string): void {
    this.verifications.add(applicationId);
  }

  webhook(): void {
    this.webhooks = true;
  }

  merge(changes: WireChanges): void {
    this.messages.merge(changes.messages, changes.messagesOverflow);
    this.phones.merge(changes.phones, changes.phonesOverflow);
    this.calls.merge(changes.calls, changes.callsOverflow);
    this.verifications.merge(changes.verifications, changes.verificationsOverflow);
    if (changes.webhooks) this.webhooks = true;
  }

  toWire(): WireChanges {
    const wire: WireChanges = {};
    const put = <T>(kind: IdKind, set: IdSet<T>): void => {
      if (set.overflow) (wire as Record<string, unknown>)[`${kind}Overflow`] = true;
      else if (set.ids.size > 0) (wire as Record<string, unknown>)[kind] = [...set.ids];
    };
    put('messages', this.messages);
    put('phones', this.phones);
    put('calls', this.calls);
    if (this.webhooks) wire.webhooks = true;
    put('verifications', this.verifications);
    return wire;
  }
}
