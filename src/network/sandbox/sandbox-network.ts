import { timeOrderedUuid } from '../../core/ids.js';
import type { Logger } from '../../logger.js';
import type { Clock, Timer } from '../../core/clock.js';
import { ERROR, STATUS, ref } from '../../core/pipeline/statuses.js';
import type { MessageChannel, PhoneReceipt, ReceivedSms, StatusRef, Store, StoredMessage } from '../../core/store/types.js';
import type { CarrierEvents, CarrierReceipt, OutboundMessage, SettledOutcome, SubmitOutcome } from '../carrier.js';
import type { RcsNetwork, RcsNetworkEvents } from '../rcs-network.js';
import { normalizeNumber } from '../../core/phone-number.js';
import { OUTCOME_BEHAVIOUR, OUTCOME_DEFAULTS, builtInOutcome, type SandboxOutcomeName } from './outcomes.js';
import { ReceiptQueue } from './receipt-queue.js';
import { findRule, type SandboxRule } from './rules.js';
import { SandboxHandset } from './sandbox-handset.js';

interface Decision {
  outcome: SandboxOutcomeName;
  status: StatusRef;
  errorId: number;
  latencyMs: number;
}

/**
 * The built-in carrier: virtual phones that accept every message and answer with a receipt chosen
 * by the destination (see outcomes.ts and rules.ts) after `latencyMs`.
 *
 * Time comes from the Clock: a timer of the clock waits for the earliest receipt, so tests with a
 * ManualClock advance the clock instead of sleeping, and a network with nothing pending sets no
 * timer at all. Receipts leave in batches at most every `tickMs` of real time. Nothing is kept
 * durably here: after a restart `resume` schedules again the receipts of submitted messages (the
 * outcome depends only on the destination and the rules), so a crash between submit and receipt
 * loses nothing. With several nodes on one database each resumes every submitted sandbox message
 * at start, and the node that takes over a dead node's messages resumes those; the later of two
 * identical receipts finds the message final and is ignored. Account rules live in memory, per
 * process. Its phones' users (`handset`) open RCS messages and write to senders
 * through the RCS events it was started with.
 */
export class SandboxNetwork implements RcsNetwork {
  readonly name = 'sandbox';
  /** Its virtual phones receive SMS and, unless their number says otherwise, RCS. */
  readonly channels = ['SMS', 'RCS'] as const;
  readonly handset: SandboxHandset;
  private events: CarrierEvents | undefined;
  /** The clock timer waiting for the earliest receipt, and its time. */
  private timer: Timer | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** An emission waiting for its turn (real time), at most one; cancelled by `stop`. */
  private emission: { cancel(): void } | undefined;
  private lastEmission = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly queue = new ReceiptQueue();
  private readonly accountRules = new Map<string, SandboxRule[]>();

  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      log: Logger;
      latencyMs: number;
      rules?: SandboxRule[];
      /** Least real time between two batches of receipts (default 20 ms), so a busy network sends batches. */
      tickMs?: number;
    },
  ) {
    this.handset = new SandboxHandset({ store: deps.store, clock: deps.clock });
  }

  async start(events: RcsNetworkEvents): Promise<void> {
    this.events = events;
    this.handset.attach(events.rcs);
    this.stopped = false;
    this.arm();
  }

  async submit(messages: OutboundMessage[]): Promise<SubmitOutcome[]> {
    const now = this.deps.clock.now();
    const outcomes: SubmitOutcome[] = [];
    const receipts: CarrierReceipt[] = [];
    const inbox: ReceivedSms[] = [];
    for (const message of messages) {
      const { accountId, pk } = message;
      const decision = this.decide(accountId, message.destination, message.channel);
      const behaviour = OUTCOME_BEHAVIOUR[decision.outcome];
      if (this.stopped || behaviour === 'throttled') {
        outcomes.push({ pk, accountId, ok: false, retryable: true, status: decision.status, errorId: decision.errorId });
        continue;
      }
      if (behaviour === 'refused') {
        outcomes.push({ pk, accountId, ok: false, retryable: false, status: decision.status, errorId: decision.errorId });
        continue;
      }
      const carrierMessageId = timeOrderedUuid();
      const delivered: PhoneReceipt | undefined =
        decision.outcome === 'DELIVERED' ? { number: normalizeNumber(message.destination), at: now } : undefined;
      if (behaviour === 'receipt' && decision.latencyMs <= 0) {
        // At zero latency the outcome is known now: the pipeline stores it with the submit, and
        // what the phone received with it, in one write, instead of a receipt a moment later (and no
        // en-route state worth reporting).
        const settled: SettledOutcome = { status: decision.status, errorId: decision.errorId, at: now };
        if (delivered) settled.phone = delivered;
        outcomes.push({ pk, accountId, ok: true, carrierMessageId, settled });
        continue;
      }
      if (delivered) inbox.push({ accountId, pk, ...delivered });
      outcomes.push({ pk, accountId, ok: true, carrierMessageId });
      if (behaviour === 'receipt') {
        receipts.push({ carrierMessageId, status: ref(STATUS.PENDING_ENROUTE), errorId: ERROR.NO_ERROR.id, final: false, at: now });
        receipts.push(finalReceipt(carrierMessageId, decision, now + decision.latencyMs));
      }
    }
    // The phone's mark on a message whose receipt comes later is written before the submit counts
    // as done: a failed write fails the submit (the dispatcher retries it) instead of leaving a
    // delivered message the phone never got.
    if (inbox.length > 0) await this.deps.store.phones.recordSms(inbox);
    this.schedule(receipts);
    return outcomes;
  }

  async resume(submitted: StoredMessage[]): Promise<void> {
    const now = this.deps.clock.now();
    const receipts: CarrierReceipt[] = [];
    for (const message of submitted) {
      if (message.carrierMessageId === undefined) continue;
      const decision = this.decide(message.accountId, message.destination, message.channel);
      if (OUTCOME_BEHAVIOUR[decision.outcome] !== 'receipt') continue;
      const due = (message.sentAt ?? now) + decision.latencyMs;
      receipts.push(finalReceipt(message.carrierMessageId, decision, Math.max(due, now)));
    }
    this.schedule(receipts);
    if (receipts.length > 0) this.deps.log.info({ count: receipts.length }, 'sandbox resumed pending receipts');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.emission?.cancel();
    this.emission = undefined;
    this.events = undefined;
    this.handset.attach(undefined);
    this.queue.clear();
  }

  /** The account's extra rules (checked before the file rules and the built-in table). */
  rulesFor(accountId: string): SandboxRule[] {
    return [...(this.accountRules.get(accountId) ?? [])];
  }

  setRules(accountId: string, rules: SandboxRule[]): void {
    if (rules.length === 0) this.accountRules.delete(accountId);
    else this.accountRules.set(accountId, [...rules]);
  }

  /** Receipts scheduled and not yet emitted. */
  get pendingReceipts(): number {
    return this.queue.size;
  }

  private decide(accountId: string, destination: string, channel: MessageChannel | undefined): Decision {
    const rule = findRule([this.accountRules.get(accountId) ?? [], this.deps.rules ?? []], destination);
    const outcome = rule?.outcome ?? builtInOutcome(destination, channel);
    const defaults = OUTCOME_DEFAULTS[outcome];
    return {
      outcome,
      status: ref(rule?.status ? STATUS[rule.status] : defaults.status),
      errorId: (rule?.error ? ERROR[rule.error] : defaults.error).id,
      latencyMs: rule?.latencyMs ?? this.deps.latencyMs,
    };
  }

  private schedule(receipts: CarrierReceipt[]): void {
    if (receipts.length === 0 || this.stopped) return;
    for (const receipt of receipts) this.queue.push(receipt);
    this.arm();
  }

  /** Waits for the earliest receipt: at once when due, else with a clock timer set for it. */
  private arm(): void {
    const next = this.queue.nextAt;
    if (next === undefined || this.stopped) return;
    const now = this.deps.clock.now();
    if (next <= now) {
      this.emitSoon();
      return;
    }
    if (next >= this.timerAt) return;
    this.timer?.cancel();
    this.timerAt = next;
    this.timer = this.deps.clock.setTimer(next - now, () => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.emitSoon();
    });
  }

  /** Receipts already due leave in this turn's batch, or once `tickMs` has passed since the last batch. */
  private emitSoon(): void {
    if (this.emission !== undefined || this.stopped) return;
    const wait = this.lastEmission + (this.deps.tickMs ?? 20) - performance.now();
    const emit = (): void => {
      this.emission = undefined;
      this.emitDue();
    };
    if (wait <= 0) {
      const immediate = setImmediate(emit);
      this.emission = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(emit, wait);
      this.emission = { cancel: () => clearTimeout(timeout) };
    }
  }

  private emitDue(): void {
    if (!this.events || this.queue.size === 0) return;
    this.lastEmission = performance.now();
    const due = this.queue.takeDue(this.deps.clock.now());
    // Not stored (logged by the recorder): the receipts come again from `resume` at the next start.
    if (due.length > 0) void this.events.receipts(this.name, due).catch(() => undefined);
    this.arm();
  }
}

function finalReceipt(carrierMessageId: string, decision: Decision, at: number): CarrierReceipt {
  return { carrierMessageId, status: decision.status, errorId: decision.errorId, final: true, at };
}
