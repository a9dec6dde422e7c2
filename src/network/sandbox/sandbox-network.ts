import { timeOrderedUuid } from '../../core/ids.js';
import type { Logger } from '../../logger.js';
import type { Clock } from '../../core/clock.js';
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
 * Time comes from the Clock: due receipts are looked for every `tickMs` of real time against
 * `clock.now()`, so tests with a ManualClock advance the clock instead of sleeping. Nothing is kept
 * durably here: after a restart `resume` schedules again the receipts of submitted messages (the
 * outcome depends only on the destination and the rules), so a crash between submit and receipt
 * loses nothing. With several nodes on one database each resumes every submitted sandbox message;
 * the later of two identical receipts finds the message final and is ignored. Account rules live
 * in memory, per process. Its phones' users (`handset`) open RCS messages and write to senders
 * through the RCS events it was started with.
 */
export class SandboxNetwork implements RcsNetwork {
  readonly name = 'sandbox';
  /** Its virtual phones receive SMS and, unless their number says otherwise, RCS. */
  readonly channels = ['SMS', 'RCS'] as const;
  readonly handset: SandboxHandset;
  private events: CarrierEvents | undefined;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
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
      /** Real-time interval between looks for due receipts. */
      tickMs?: number;
    },
  ) {
    this.handset = new SandboxHandset({ store: deps.store, clock: deps.clock });
  }

  async start(events: RcsNetworkEvents): Promise<void> {
    this.events = events;
    this.handset.attach(events.rcs);
    this.stopped = false;
    this.timer = setInterval(() => this.emitDue(), this.deps.tickMs ?? 20);
    this.timer.unref();
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
    if (this.timer) clearInterval(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
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
    // Receipts already due (zero latency) leave in the same turn's batch rather than a tick later.
    const now = this.deps.clock.now();
    if (receipts.some((r) => r.at <= now) && this.immediate === undefined) {
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.emitDue();
      });
    }
  }

  private emitDue(): void {
    if (!this.events || this.queue.size === 0) return;
    const due = this.queue.takeDue(this.deps.clock.now());
    // Not stored (logged by the recorder): the receipts come again from `resume` at the next start.
    if (due.length > 0) void this.events.receipts(this.name, due).catch(() => undefined);
  }
}

function finalReceipt(carrierMessageId: string, decision: Decision, at: number): CarrierReceipt {
  return { carrierMessageId, status: decision.status, errorId: decision.errorId, final: true, at };
}
