import type { Logger } from '../../logger.js';
import type { Carrier, CarrierRouter, OutboundMessage, SubmitOutcome } from '../../network/carrier.js';
import type { Clock, Timer } from '../clock.js';
import type { Metrics } from '../metrics.js';
import type { ClaimedMessage, StatusRef, Store, StoredMessage, SubmitResult } from '../store/types.js';
import { yieldToEventLoop } from '../yield.js';
import { IDLE_MS } from '../idle.js';
import { nextWindowOpening } from './delivery-window.js';
import type { HandoffSlots } from './handoff-slots.js';
import { adoptSubmitted, resumeSubmitted } from './resume-submitted.js';
import { ERROR, STATUS, ref } from './statuses.js';
import type { SettledSubmit, StatusRecorder } from './status-recorder.js';

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  router: CarrierRouter;
  recorder: StatusRecorder;
  metrics: Metrics;
  log: Logger;
  /**
   * Messages claimed or taken from the handoff at once (default 100). Not large: a claim holds
   * SQLite's write lock while it runs, and acceptance on the HTTP thread waits for that lock;
   * measured here, claims of 500 halved the accepted rate against claims of 50. Against 50, rounds
   * of 100 shared each submit round's store write among twice the messages and measured 3–8 % faster
   * end to end over SMPP on SQLite, 1–3 % on PostgreSQL, with less CPU on both.
   */
  batchSize?: number;
  /**
   * Real-time wait for a nudge after a round that left nothing waiting, before looking at the store
   * again (default 250 ms); also how often a busy loop claims from the store beside handed-over work.
   */
  pollMs?: number;
  /**
   * Longest sleep of an idle loop (default IDLE_MS): once a look finds nothing, it sleeps until the
   * store's next due time or a nudge; this bounds how late it sees work nobody nudged it for.
   */
  idleMs?: number;
  /** This node: recorded with its claims and submits, so that if it dies the others take them over. */
  nodeId?: string;
  /**
   * Least real time between two claims that were not full (default 10 ms): under a stream of nudges
   * work gathers into bigger batches, so each transaction's fixed cost is shared.
   */
  gatherMs?: number;
  /**
   * How long a claim is ours before anyone may take it over (DEFAULT_LEASE_MS). It must outlast the
   * slowest submit round, and it is also how long messages claimed by a node that died wait.
   */
  leaseMs?: number;
  /**
   * Rounds whose submits may be awaiting their answers at once (default 4). One round at a time
   * left the link idle while a round's last answers and its store write were awaited (on
   * PostgreSQL, a round trip to another process): over SMPP, four rounds measured half again as
   * fast as one on SQLite and a quarter faster on PostgreSQL. The carrier keeps the order of
   * submits across rounds, as each queues them in claim order.
   */
  roundsInFlight?: number;
  /** Freed as handed-over messages are taken (see handOff); absent when nothing hands over. */
  handoffSlots?: HandoffSlots;
  /** Most real time between expiry sweeps while busy (default 1 s); an idle loop sweeps at every poll. */
  sweepMs?: number;
  /** Real-time wait after a store error before trying again (default 1 s). */
  errorDelayMs?: number;
  /** Retry delay per attempt after a retryable refusal, capped by maxBackoffMs (defaults 5 s, 60 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

interface Pending {
  message: ClaimedMessage;
  outbound: OutboundMessage;
}

/** A claim's lease, also given to messages stored already claimed at acceptance. */
export const DEFAULT_LEASE_MS = 10_000;


/** Reads that write rarely (expiry) page independently of the claim size. */
const PAGE = 1000;
const SWEEP_PAGES = 20;

/**
 * Moves due messages to the carriers. Each round claims a batch (claims are safe across processes
 * sharing one database), expires what outlived its validity, puts back what is outside its delivery
 * window, and submits the rest grouped by carrier. A full batch is followed at once by another
 * claim; otherwise the loop waits for `nudge()` for a poll interval, then looks at the store once
 * more, and then sleeps until the store's next due time (a scheduled message, a lapsing claim, a
 * validity ending) or a nudge, at most `idleMs`, which bounds how late it sees work left by other
 * nodes. An idle loop at each wake-up (a busy one every `sweepMs`) runs the expiry sweep that ends
 * submitted messages whose receipt never came (EXPIRED_DLR_UNKNOWN at validUntil).
 */
export class Dispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private nudged = false;
  /** Nudged since the last round: something may have been stored for a claim (not handed over). */
  private storeNudged = false;
  private wake: (() => void) | undefined;
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** The last wait ended without a nudge: the next idle wait sleeps until the store's next due time. */
  private quiet = false;
  private readonly batchSize: number;
  private readonly leaseMs: number;
  /** Handed over at acceptance, stored claimed by us, not yet taken into a round. */
  private handedOver: ClaimedMessage[] = [];
  private lastStoreClaim = Number.NEGATIVE_INFINITY;
  /** The last claim from the store came back full: more is due there. */
  private storeBacklog = false;
  /** Submit rounds started and not yet recorded. */
  private readonly rounds = new Set<Promise<void>>();
  /** A round that failed since the loop last looked: the loop pauses as after a failed claim. */
  private roundFailure: unknown;
  private readonly roundsInFlight: number;

  constructor(private readonly deps: DispatcherDeps) {
    this.batchSize = deps.batchSize ?? 100;
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.roundsInFlight = Math.max(1, deps.roundsInFlight ?? 4);
  }

  /** Hands each carrier its submitted-but-unfinished messages, then starts the claim loop. */
  async start(): Promise<void> {
    if (this.running) return;
    await resumeSubmitted(this.deps.store, this.deps.router);
    this.running = true;
    this.loop = this.run();
  }

  /** New work may be due in the store: claim now instead of at the next poll. */
  nudge(): void {
    this.storeNudged = true;
    this.wakeUp();
  }

  /**
   * Messages acceptance stored already claimed for us (state `dispatching`, leased): they go into
   * the next rounds without a claim. Each round takes a batch of them, and claims from the store
   * as well when something was stored for a claim since the last round (a nudge), when the store
   * had more due last time, when nothing was handed over, and at least once per poll interval, so
   * work waiting there is never starved by a steady stream of new messages. Rounds of handed-over
   * messages alone ask the store nothing: on PostgreSQL an empty claim is a planned statement.
   */
  handOff(messages: ClaimedMessage[]): void {
    for (const message of messages) this.handedOver.push(message);
    this.wakeUp();
  }

  private wakeUp(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming, waits for the round in progress, and puts back what was handed over but not taken. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    const left = this.handedOver;
    this.handedOver = [];
    this.deps.handoffSlots?.release(left.length);
    if (left.length === 0) return;
    try {
      await this.deps.store.messages.requeue(left.map((m) => ({ accountId: m.accountId, pk: m.pk, dueAt: m.dueAt })));
    } catch (error) {
      // Still leased: they are claimed from the store once the lease runs out.
      this.deps.log.warn({ err: error, count: left.length }, 'could not put back handed-over messages');
    }
  }

  /**
   * Take-over of nodes found dead (and, at start, of this node's own previous run): their claims go
   * back to the queue, and the messages they had submitted become this node's, each carrier resuming
   * them as after a restart (the sandbox schedules their receipts again).
   */
  async takeOver(nodeIds: string[], silentBefore: number): Promise<void> {
    const { store, router, log, nodeId } = this.deps;
    const released = await store.messages.releaseClaims(nodeIds, silentBefore);
    if (released > 0) this.nudge();
    const others = nodeIds.filter((id) => id !== nodeId);
    const adopted = nodeId === undefined ? 0 : await adoptSubmitted(store, router, { from: others, silentBefore, nodeId });
    if (released + adopted > 0) log.warn({ nodes: nodeIds, released, adopted }, 'took over the messages of stopped nodes');
  }

  private async run(): Promise<void> {
    let lastClaim = Number.NEGATIVE_INFINITY;
    let more = false;
    while (this.running) {
      const wait = (this.deps.gatherMs ?? 10) - (performance.now() - lastClaim);
      if (!more && wait > 0) await this.pause(wait, false);
      else await yieldToEventLoop();
      try {
        while (this.rounds.size >= this.roundsInFlight) await Promise.race(this.rounds);
        this.throwRoundFailure();
        lastClaim = performance.now();
        more = await this.claimAndDispatch();
        await this.sweepIfDue(!more);
      } catch (error) {
        this.deps.log.error({ err: error }, 'dispatcher round failed; retrying');
        await this.pause(this.deps.errorDelayMs ?? 1000, false);
        this.quiet = false;
        continue;
      }
      if (!more) await this.idle();
    }
    while (this.rounds.size > 0) await Promise.race(this.rounds);
  }

  private throwRoundFailure(): void {
    if (this.roundFailure === undefined) return;
    const failure = this.roundFailure;
    this.roundFailure = undefined;
    throw failure;
  }

  /**
   * Waits for a nudge for a poll interval; a loop that stays unnudged looks at the store once more
   * (the round after this wait) and then sleeps until the next due time the store knows of, at most
   * idleMs, instead of polling.
   */
  private async idle(): Promise<void> {
    if (this.quiet) {
      // Kept receipts are matched again by the sweep, so their next try is a due time too.
      const dueAt = await Promise.all([this.deps.store.messages.nextDueAt(), this.deps.store.keptReceipts.nextTryAt()]).then(
        (dues) => earliest(dues),
        () => Number.NEGATIVE_INFINITY,
      );
      // Due already (a claim raced another node's, an expiry awaits its sweep): poll as before.
      if (dueAt === undefined || dueAt > this.deps.clock.now()) {
        this.quiet = !(await this.pause(this.deps.idleMs ?? IDLE_MS, true, dueAt));
        return;
      }
    }
    this.quiet = !(await this.pause(this.deps.pollMs ?? 250, true));
  }

  /**
   * Resolves true when woken (a nudge when `wakeOnNudge`, a stop, or `dueAt` reached on the clock),
   * false once `ms` of real time have passed.
   */
  private pause(ms: number, wakeOnNudge: boolean, dueAt?: number): Promise<boolean> {
    if (!this.running || (wakeOnNudge && this.nudged)) return Promise.resolve(true);
    const { clock } = this.deps;
    return new Promise((resolve) => {
      let due: Timer | undefined;
      const done = (woken: boolean): void => {
        clearTimeout(timer);
        due?.cancel();
        this.wake = undefined;
        resolve(woken);
      };
      const timer = setTimeout(() => done(false), ms);
      if (dueAt !== undefined) due = clock.setTimer(dueAt - clock.now(), () => done(true));
      this.wake = wakeOnNudge ? () => done(true) : () => (this.running ? undefined : done(true));
    });
  }

  /** One round; true when more is waiting (handed over, or due in the store after a full claim). */
  private async claimAndDispatch(): Promise<boolean> {
    // Backpressure: submitting faster than receipts are recorded would only pile receipts up in
    // memory (they are not durable there; the store is the queue).
    await this.deps.recorder.whenBacklogBelow(this.batchSize * 2);
    const now = this.deps.clock.now();
    const storeNudged = this.storeNudged;
    this.nudged = false;
    this.storeNudged = false;
    const claimed = this.takeHandedOver(now);
    const pollDue = performance.now() - this.lastStoreClaim >= (this.deps.pollMs ?? 250);
    if (storeNudged || this.storeBacklog || claimed.length === 0 || pollDue) {
      this.lastStoreClaim = performance.now();
      const fromStore = await this.deps.store.messages.claimDue(now, this.batchSize, now + this.leaseMs, this.deps.nodeId);
      this.storeBacklog = fromStore.length >= this.batchSize;
      for (const message of fromStore) claimed.push(message);
    }
    if (claimed.length === 0) return false;
    const expired: ClaimedMessage[] = [];
    const later: Array<{ accountId: string; pk: number; dueAt: number }> = [];
    const byCarrier = new Map<Carrier, Pending[]>();
    for (const message of claimed) {
      if (message.validUntil <= now) {
        expired.push(message);
        continue;
      }
      const opening = this.windowOpening(message, now);
      if (opening > now) {
        // Never past validUntil: a window that opens too late lets the message expire on time.
        later.push({ accountId: message.accountId, pk: message.pk, dueAt: Math.min(opening, message.validUntil) });
        continue;
      }
      const outbound = toOutbound(message);
      const carrier = this.deps.router.route(outbound);
      const list = byCarrier.get(carrier);
      if (list) list.push({ message, outbound });
      else byCarrier.set(carrier, [{ message, outbound }]);
    }
    await this.deps.recorder.recordFinal(expired, ref(STATUS.EXPIRED_EXPIRED), ERROR.EC_VALIDITY_EXPIRED.id);
    if (later.length > 0) await this.deps.store.messages.requeue(later);
    if (byCarrier.size > 0) this.startRound(byCarrier);
    return this.storeBacklog || this.handedOver.length > 0;
  }

  /**
   * Submits a round without waiting for its answers, so the next claim overlaps them. Every
   * carrier's submit runs to its end before a failure is reported, and the loop waits for every
   * round before it ends, so stop() never leaves one behind.
   */
  private startRound(byCarrier: Map<Carrier, Pending[]>): void {
    const round = Promise.allSettled([...byCarrier].map(([carrier, pending]) => this.submitTo(carrier, pending))).then((results) => {
      this.rounds.delete(round);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        this.roundFailure = failed.reason;
        this.wake?.();
      }
      // A quiet loop may have read the store's next due time before this round's writes (a retry's
      // due time, a validity now watched as submitted): it looks again.
      if (this.quiet) this.nudge();
    });
    this.rounds.add(round);
  }

  /**
   * Up to a batch of handed-over messages. One whose lease is half gone (the engine was stalled) is
   * left to the store: its lease runs out and a claim takes it, with a lease of its own.
   */
  private takeHandedOver(now: number): ClaimedMessage[] {
    if (this.handedOver.length === 0) return [];
    const taken = this.handedOver.splice(0, this.batchSize);
    this.deps.handoffSlots?.release(taken.length);
    const fresh = taken.filter((message) => message.leaseUntil - now >= this.leaseMs / 2);
    if (fresh.length < taken.length) this.deps.log.warn({ count: taken.length - fresh.length }, 'handed-over messages left to their lease');
    return fresh;
  }

  private windowOpening(message: ClaimedMessage, now: number): number {
    if (!message.deliveryWindow) return now;
    try {
      return nextWindowOpening(message.deliveryWindow, now);
    } catch (error) {
      this.deps.log.warn({ err: error, messageId: message.messageId }, 'ignoring an invalid delivery window');
      return now;
    }
  }

  private async submitTo(carrier: Carrier, pending: Pending[]): Promise<void> {
    const work = this.submitAndRecord(carrier, pending);
    this.deps.recorder.holdReceiptsUntil(work);
    await work;
  }

  private async submitAndRecord(carrier: Carrier, pending: Pending[]): Promise<void> {
    // Taken before the submit: receipts a fast carrier stamps during it must not precede sentAt.
    const at = this.deps.clock.now();
    let outcomes: SubmitOutcome[] = [];
    try {
      outcomes = await carrier.submit(pending.map((p) => p.outbound));
    } catch (error) {
      // Without outcomes every message is retried: a refusal we cannot read is not a final answer.
      this.deps.log.warn({ err: error, carrier: carrier.name, count: pending.length }, 'carrier submit failed');
    }
    const byPk = new Map(outcomes.map((o) => [o.pk, o]));
    const submitted: SubmitResult[] = [];
    const settled: SettledSubmit[] = [];
    const retry: Array<{ accountId: string; pk: number; dueAt: number }> = [];
    const refused = new Map<string, { status: StatusRef; errorId: number; messages: ClaimedMessage[] }>();
    for (const { message } of pending) {
      const outcome = byPk.get(message.pk);
      if (outcome?.ok) {
        const result: SubmitResult = { accountId: message.accountId, pk: message.pk, carrier: carrier.name, carrierMessageId: outcome.carrierMessageId, at };
        if (outcome.partIds) result.partIds = outcome.partIds;
        if (outcome.settled) settled.push({ message: markedSubmitted(message, result), submit: result, outcome: outcome.settled });
        else submitted.push(result);
      } else if (outcome === undefined || outcome.retryable) {
        retry.push({ accountId: message.accountId, pk: message.pk, dueAt: Math.min(at + this.backoff(message.attempts), message.validUntil) });
      } else {
        const key = `${outcome.status.groupId}:${outcome.status.id}:${outcome.errorId}`;
        const group = refused.get(key) ?? { status: outcome.status, errorId: outcome.errorId, messages: [] };
        group.messages.push(message);
        refused.set(key, group);
      }
    }
    if (submitted.length > 0) {
      const writeNow = this.deps.recorder.holdSubmits(carrier.name, submitted);
      if (writeNow.length > 0) await this.deps.store.messages.markSubmitted(writeNow, this.deps.nodeId);
      this.deps.metrics.messagesSubmitted.inc({ carrier: carrier.name }, submitted.length);
      const byPkMessage = new Map(pending.map((p) => [p.message.pk, p.message]));
      const remembered: StoredMessage[] = [];
      for (const result of submitted) remembered.push(markedSubmitted(byPkMessage.get(result.pk)!, result));
      this.deps.recorder.remember(carrier.name, remembered);
    }
    if (settled.length > 0) {
      await this.deps.recorder.recordSettled(settled);
      this.deps.metrics.messagesSubmitted.inc({ carrier: carrier.name }, settled.length);
    }
    if (retry.length > 0) await this.deps.store.messages.requeue(retry);
    for (const group of refused.values()) await this.deps.recorder.recordFinal(group.messages, group.status, group.errorId);
  }

  private backoff(attempts: number): number {
    return Math.min((this.deps.backoffMs ?? 5000) * Math.max(attempts, 1), this.deps.maxBackoffMs ?? 60_000);
  }

  /**
   * The sweep is an indexed read: an idle loop runs it at every poll, a busy one every sweepMs. It
   * also has the recorder match again the receipts it kept for want of their message.
   * Not at every idle round: a steady stream of handed-over messages makes most rounds idle ones,
   * up to a hundred a second. (Half a poll interval, as a poll timer may fire a moment early.)
   */
  private async sweepIfDue(idle: boolean): Promise<void> {
    const elapsed = performance.now() - this.lastSweep;
    if (elapsed < (idle ? (this.deps.pollMs ?? 250) / 2 : (this.deps.sweepMs ?? 1000))) return;
    this.lastSweep = performance.now();
    const now = this.deps.clock.now();
    for (let page = 0; page < SWEEP_PAGES; page++) {
      const overdue = await this.deps.store.messages.listOverdueSubmitted(now, PAGE);
      await this.deps.recorder.recordOverdue(overdue);
      if (overdue.length < PAGE) break;
    }
    await this.deps.recorder.retryKeptReceipts();
  }
}

function toOutbound(message: ClaimedMessage): OutboundMessage {
  const outbound: OutboundMessage = {
    accountId: message.accountId,
    pk: message.pk,
    messageId: message.messageId,
    destination: message.destination,
    content: message.content,
    encoding: message.encoding,
    messageCount: message.messageCount,
    validUntil: message.validUntil,
    flash: message.extras?.flash === true,
    attempts: message.attempts,
  };
  if (message.webhook.intermediateReport) outbound.intermediateReport = true;
  if (message.sender !== undefined) outbound.sender = message.sender;
  if (message.channel !== undefined) outbound.channel = message.channel;
  return outbound;
}

/** The claimed object is the dispatcher's alone: updating it in place avoids a copy per message. */
function markedSubmitted(message: StoredMessage, result: SubmitResult): StoredMessage {
  message.state = 'submitted';
  message.carrier = result.carrier;
  message.carrierMessageId = result.carrierMessageId;
  message.sentAt = result.at;
  return message;
}

const earliest = (dues: Array<number | undefined>): number | undefined =>
  dues.reduce<number | undefined>((min, due) => (due === undefined ? min : min === undefined ? due : Math.min(min, due)), undefined);
