import type {
  CallStep,
  CallStore,
  CallTransition,
  InboundStore,
  MessageStore,
  OutboxStore,
  PhoneStore,
  PinStore,
  StatusChange,
  Store,
} from '../../core/store/types.js';
import type { ChangeCollector } from './change-collector.js';

/**
 * The store, reporting what its writes change to the live feed. Built in the composition root
 * (server.ts, engine-worker.ts), so persistence knows nothing of the feed and every writer (HTTP
 * thread or engine) is covered. Each write checks `changes.active` first: with nobody watching, a
 * write costs one more function call and a flag read, per batch rather than per message.
 */
export function publishingStore(store: Store, changes: ChangeCollector): Store {
  return overlay(store, {
    messages: publishingMessages(store.messages, changes),
    phones: publishingPhones(store.phones, changes),
    outbox: publishingOutbox(store.outbox, changes),
    inbound: publishingInbound(store.inbound, changes),
    calls: publishingCalls(store.calls, changes),
    pins: publishingPins(store.pins, changes),
  });
}

/** `target` with some members replaced; its other methods stay bound to it. */
function overlay<T extends object>(target: T, overrides: Partial<T>): T {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T];
      const cached = bound.get(key);
      if (cached !== undefined) return cached;
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(object);
      bound.set(key, method);
      return method;
    },
  });
}

function publishingMessages(inner: MessageStore, changes: ChangeCollector): MessageStore {
  return overlay(inner, {
    async insertMany(messages) {
      const results = await inner.insertMany(messages);
      if (changes.active) {
        results.forEach((result, i) => {
          if (result !== 'duplicate') changes.of(messages[i]!.accountId).message(result);
        });
      }
      return results;
    },
    async markSubmitted(results, nodeId) {
      await inner.markSubmitted(results, nodeId);
      if (changes.active) for (const r of results) changes.of(r.accountId).message(r.pk);
    },
    async applyStatusChanges(list) {
      await inner.applyStatusChanges(list);
      if (changes.active) await statusChanged(inner, list, changes);
    },
  });
}

async function statusChanged(inner: MessageStore, list: StatusChange[], changes: ChangeCollector): Promise<void> {
  for (const change of list) {
    const account = changes.of(change.accountId);
    account.message(change.pk);
    if (change.phone) account.phone(change.phone.number);
    if (change.webhooks && change.webhooks.length > 0) account.webhook();
    // A failover's seq is the store's: read it back (rare, and only while someone watches).
    if (change.spawn) {
      const spawned = await inner.get(change.spawn.accountId, change.spawn.messageId);
      if (spawned) changes.of(spawned.accountId).message(spawned.pk);
    }
  }
}

function publishingPhones(inner: PhoneStore, changes: ChangeCollector): PhoneStore {
  return overlay(inner, {
    async record(message) {
      await inner.record(message);
      if (changes.active) changes.of(message.accountId).phone(message.number);
    },
    async recordMany(messages) {
      await inner.recordMany(messages);
      if (changes.active) for (const m of messages) changes.of(m.accountId).phone(m.number);
    },
    async recordSms(received) {
      await inner.recordSms(received);
      if (changes.active) for (const r of received) changes.of(r.accountId).phone(r.number);
    },
  });
}

function publishingOutbox(inner: OutboxStore, changes: ChangeCollector): OutboxStore {
  return overlay(inner, {
    async enqueue(items) {
      await inner.enqueue(items);
      if (changes.active) for (const item of items) changes.of(item.accountId).webhook();
    },
    async recordAttempt(attempt, next) {
      await inner.recordAttempt(attempt, next);
      if (changes.active) changes.of(attempt.accountId).webhook();
    },
    async retryNow(accountId, id, now) {
      const outcome = await inner.retryNow(accountId, id, now);
      if (changes.active && outcome.kind === 'retried') changes.of(accountId).webhook();
      return outcome;
    },
  });
}

function publishingInbound(inner: InboundStore, changes: ChangeCollector): InboundStore {
  return overlay(inner, {
    async insert(message, options) {
      const stored = await inner.insert(message, options);
      if (stored && changes.active && options.webhooks && options.webhooks.length > 0) changes.of(message.accountId).webhook();
      return stored;
    },
  });
}

function callChanged(accountId: string, callId: string, transition: Omit<CallTransition, 'call'> | undefined, changes: ChangeCollector): void {
  const account = changes.of(accountId);
  account.call(callId);
  for (const entry of transition?.phone ?? []) account.phone(entry.number);
  if (transition?.events && transition.events.length > 0) account.webhook();
}

function publishingCalls(inner: CallStore, changes: ChangeCollector): CallStore {
  return overlay(inner, {
    async create(call, first) {
      const created = await inner.create(call, first);
      if (changes.active) callChanged(created.accountId, created.callId, first, changes);
      return created;
    },
    async update(accountId, callId, step) {
      if (!changes.active) return inner.update(accountId, callId, step);
      // The step is pure and runs inside the store's transaction; what it returned last was stored.
      let transition: CallTransition | undefined;
      const watched: CallStep = (call) => (transition = step(call));
      const updated = await inner.update(accountId, callId, watched);
      if (updated && transition) callChanged(accountId, callId, transition, changes);
      return updated;
    },
  });
}

function publishingPins(inner: PinStore, changes: ChangeCollector): PinStore {
  return overlay(inner, {
    async create(pin, options) {
      await inner.create(pin, options);
      if (changes.active) changes.of(pin.accountId).verification(pin.applicationId);
    },
    async markSent(accountId, pinId, sentAt, externalMessageId, channel) {
      await inner.markSent(accountId, pinId, sentAt, externalMessageId, channel);
      if (!changes.active) return;
      const pin = await inner.get(accountId, pinId);
      if (pin) changes.of(accountId).verification(pin.applicationId);
    },
    async verify(accountId, pinId, correct, now) {
      const outcome = await inner.verify(accountId, pinId, correct, now);
      if (!changes.active || !outcome) return outcome;
      const pin = await inner.get(accountId, pinId);
      if (pin) changes.of(accountId).verification(pin.applicationId);
      return outcome;
    },
  });
}
