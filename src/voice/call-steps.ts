import type { Clock } from '../core/clock.js';
import type { CallRecord, CallTransition, NewCall, OutboxItemInput, PhoneMessage, Store } from '../core/store/types.js';
import { normalizeNumber } from '../core/phone-number.js';
import type { CallInput } from './machine/call-input.js';
import { stepCall, type MachineContext } from './machine/call-machine.js';
import type { StepOutput } from './machine/step-output.js';
import { renderCallEvent } from './wire/call-events.js';

/** Where one call event goes: the webhook targets of the account's VOICE_VIDEO subscriptions it matches. */
export interface WebhookDestination {
  url: string;
  security?: OutboxItemInput['security'];
  subscriptionId: string;
}

/** The account's subscriptions, read before a step so that the step can match its events synchronously. */
export interface EventTargets {
  targetsFor(event: string, call: CallRecord): WebhookDestination[];
}

export interface CallStepsDeps {
  store: Store;
  clock: Clock;
  machine: MachineContext;
  /** The base URL events give applications for follow-up requests (`apiBaseUrl`). */
  apiBaseUrl: string;
  eventTargets(accountId: string): Promise<EventTargets>;
  /** A step stored timers (the earliest due at `dueAt`) or webhook items: the engine should look. */
  onScheduled(dueAt: number | undefined, webhooksQueued: boolean): void;
  /**
   * The webhook items of a scripted call's delivery report, rendered by the call's maker, when the
   * call ended with delivery tracked; `destinations` are the subscriptions to the DELIVERY event.
   */
  scriptReport?(call: CallRecord, now: number, destinations: WebhookDestination[]): OutboxItemInput[];
}

export const CALL_EVENT_FORMAT = 'call-event';

/**
 * Runs steps of calls through the store: reads the account's event targets, runs the machine inside
 * the call's transaction, and turns what it decided into what the store keeps — events rendered and
 * addressed to their webhooks in order (one stream per call), timers, timeline, and what the far
 * end's phone heard. The HTTP side runs API actions with it, the engine network events and timers.
 */
export class CallSteps {
  constructor(private readonly deps: CallStepsDeps) {}

  /** Stores a new call with its first step. */
  async create(call: NewCall, first: (call: CallRecord, now: number) => StepOutput): Promise<CallRecord> {
    const targets = await this.deps.eventTargets(call.accountId);
    const now = this.deps.clock.now();
    const output = first({ ...call, pk: 0 }, now);
    const { call: _firstCall, ...outputs } = this.transition(output, targets);
    const stored = await this.deps.store.calls.create(output.call, outputs);
    this.scheduled(outputs);
    return stored;
  }

  /**
   * Applies one input to a call. Returns the call as stored afterwards, or undefined when the
   * account has no such call; a refused API action rejects with its ApiProblem.
   */
  async apply(accountId: string, callId: string, input: CallInput): Promise<CallRecord | undefined> {
    const targets = await this.deps.eventTargets(accountId);
    let stored: CallTransition | undefined;
    const call = await this.deps.store.calls.update(accountId, callId, (current) => {
      const output = stepCall(current, input, this.deps.clock.now(), this.deps.machine);
      stored = output && this.transition(output, targets);
      return stored;
    });
    if (stored) this.scheduled(stored);
    return call;
  }

  private scheduled(t: Omit<CallTransition, 'call'>): void {
    const timers = t.addTimers ?? [];
    const dueAt = timers.length === 0 ? undefined : Math.min(...timers.map((x) => x.dueAt));
    const webhooks = (t.events?.length ?? 0) > 0;
    if (dueAt !== undefined || webhooks) this.deps.onScheduled(dueAt, webhooks);
  }

  private transition(o: StepOutput, targets: EventTargets): CallTransition {
    const call = o.call;
    const events: OutboxItemInput[] = [];
    // A scripted call is the platform's own (a voice PIN): the application hears nothing of it.
    for (const event of call.script ? [] : o.events) {
      const destinations = targets.targetsFor(event.type, call);
      if (destinations.length === 0) continue;
      const payload = renderCallEvent(event, call, o.now, this.deps.apiBaseUrl);
      for (const destination of destinations) {
        const item: OutboxItemInput = {
          accountId: call.accountId,
          url: destination.url,
          format: CALL_EVENT_FORMAT,
          payload,
          subscriptionId: destination.subscriptionId,
          createdAt: o.now,
          dueAt: o.now,
          stream: `call:${call.callId}:${destination.subscriptionId}`,
        };
        if (destination.security) item.security = destination.security;
        events.push(item);
      }
    }
    if (call.script?.trackDelivery && this.deps.scriptReport && o.events.some((e) => e.type === 'CALL_FINISHED' || e.type === 'CALL_FAILED')) {
      events.push(...this.deps.scriptReport(call, o.now, targets.targetsFor('DELIVERY', call)));
    }
    const transition: CallTransition = { call, events, timeline: o.timeline };
    if (o.addTimers.length > 0) transition.addTimers = o.addTimers;
    if (o.removeTimerIds.length > 0) transition.removeTimerIds = o.removeTimerIds;
    if (o.removeTimerKinds.length > 0) transition.removeTimerKinds = o.removeTimerKinds;
    if (o.removeAllTimers) transition.removeAllTimers = true;
    const phone = heardBy(o);
    if (phone.length > 0) transition.phone = phone;
    return transition;
  }
}

/** What the sandbox phone at the far end heard, as entries of its list: speech as text. */
function heardBy(o: StepOutput): PhoneMessage[] {
  const call = o.call;
  const number = typeof call.endpoint.phoneNumber === 'string' ? call.endpoint.phoneNumber : call.direction === 'INBOUND' ? call.from : undefined;
  if (number === undefined || o.heard.length === 0) return [];
  const caller = call.direction === 'OUTBOUND' ? call.from : call.to;
  return o.heard.map((heard) => ({
    accountId: call.accountId,
    number: normalizeNumber(number),
    channel: 'VOICE',
    from: caller,
    text: heard.text,
    messageId: call.callId,
    receivedAt: o.now,
    payload: { callId: call.callId, actionId: heard.actionId, language: heard.language },
  }));
}
