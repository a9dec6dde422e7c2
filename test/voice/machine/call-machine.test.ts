import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiProblem } from '../../../src/core/errors/api-problem.js';
import type { CallRecord, CallTimer, NewCallTimer } from '../../../src/core/store/types.js';
import { SandboxTelephony } from '../../../src/network/telephony/sandbox-telephony.js';
import type { CallInput, NewMediaAction } from '../../../src/voice/machine/call-input.js';
import { dialStep, receiveStep, stepCall, type MachineContext } from '../../../src/voice/machine/call-machine.js';
import type { StepOutput } from '../../../src/voice/machine/step-output.js';
import { newCall } from '../call-fixture.js';

const T0 = Date.UTC(2025, 0, 1);
const ctx: MachineContext = { telephony: new SandboxTelephony(1500), mediaScale: 1 };

const callOf = (overrides: Partial<CallRecord> = {}): CallRecord => ({
  ...newCall('acct', { callId: 'call-1', configurationId: 'conf', nodeId: 'n', maxDurationMs: 3_600_000, startTime: T0, updatedAt: T0 }),
  pk: 1,
  ...overrides,
});

/**
 * Plays a call forward like the store and the engine would: keeps its timers, fires them in time
 * order up to a moment, and applies every step's call.
 */
class Harness {
  timers: CallTimer[] = [];
  events: Array<{ type: string; properties?: Record<string, unknown>; at: number }> = [];
  timeline: Array<{ type: string; data: Record<string, unknown> }> = [];
  heard: string[] = [];
  private nextTimerId = 1;
  now = T0;

  constructor(
    public call: CallRecord,
    private readonly context: MachineContext = ctx,
  ) {}

  apply(o: StepOutput | undefined): void {
    if (!o) return;
    this.call = o.call;
    if (o.removeAllTimers) this.timers = [];
    this.timers = this.timers.filter((t) => !o.removeTimerIds.includes(t.id) && !o.removeTimerKinds.includes(t.kind));
    for (const timer of o.addTimers) this.add(timer);
    for (const event of o.events) this.events.push({ ...event, at: o.now });
    this.timeline.push(...o.timeline);
    this.heard.push(...o.heard.map((h) => h.text));
  }

  private add(timer: NewCallTimer): void {
    this.timers.push({ ...timer, id: this.nextTimerId++, accountId: 'acct', callPk: 1, callId: 'call-1' });
  }

  send(input: CallInput): void {
    this.apply(stepCall(this.call, input, this.now, this.context));
  }

  /** Runs due timers in order up to `until`; media preparation answers with `audioMs` of audio. */
  runUntil(until: number, audioMs = 2000): void {
    for (;;) {
      const due = this.timers.filter((t) => t.dueAt <= until).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id)[0];
      if (!due) break;
      this.now = Math.max(this.now, due.dueAt);
      if (due.kind === 'media-prepare') {
        this.send({ kind: 'media-ready', actionId: Number(due.data!.actionId), audioMs, audioRef: `ref-${String(due.data!.actionId)}`, timerId: due.id });
      } else {
        this.send({ kind: 'timer', timer: due });
      }
    }
    this.now = Math.max(this.now, until);
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }
}

const say = (text: string, extra: Partial<NewMediaAction> = {}): CallInput => ({
  kind: 'say',
  action: { type: 'SAY', source: { kind: 'speech', text, language: 'en', speechRate: 1 }, loopCount: 1, ...extra },
});

function established(overrides: Partial<CallRecord> = {}): Harness {
  const h = new Harness(callOf(overrides));
  h.apply(dialStep(h.call, T0, ctx));
  h.runUntil(T0 + 1500);
  assert.equal(h.call.state, 'ESTABLISHED');
  return h;
}

const rejects400 = (run: () => void, property: string): void => {
  assert.throws(run, (error: unknown) => error instanceof ApiProblem && error.statusCode === 400 && error.violations[0]?.property === property);
};

describe('call machine', () => {
  it('dials: CALLING, then RINGING after a fifth of the latency, ESTABLISHED after all of it', () => {
    const h = new Harness(callOf());
    h.apply(dialStep(h.call, T0, ctx));
    assert.deepEqual(h.timers.map((t) => [t.kind, t.dueAt - T0]), [['connect-timeout', 60_000], ['network', 300], ['network', 1500]]);
    h.runUntil(T0 + 1500);
    assert.deepEqual(h.types(), ['CALL_STARTED', 'CALL_RINGING', 'CALL_ESTABLISHED']);
    assert.deepEqual([h.call.ringTime, h.call.answerTime], [T0 + 300, T0 + 1500]);
    assert.deepEqual(h.timers.map((t) => [t.kind, t.dueAt]), [['max-duration', T0 + 1500 + 3_600_000]], 'the connect timeout is gone');
  });

  it('ends busy, unreachable and unanswered calls as the sandbox suffixes say', () => {
    const outcome = (number: string) => {
      const h = new Harness(callOf({ endpoint: { type: 'PHONE', phoneNumber: number }, connectTimeoutMs: 20_000 }));
      h.apply(dialStep(h.call, T0, ctx));
      h.runUntil(T0 + 30_000);
      return [h.call.state, h.call.errorCode, h.call.hangupSource, h.types().at(-1), h.timers.length];
    };
    assert.deepEqual(outcome('41793029011'), ['BUSY', 10201, 'ENDPOINT', 'CALL_FAILED', 0]);
    assert.deepEqual(outcome('41793029013'), ['FAILED', 10304, 'ENDPOINT', 'CALL_FAILED', 0]);
    assert.deepEqual(outcome('41793029012'), ['NO_ANSWER', 10200, 'PLATFORM', 'CALL_FAILED', 0]);
  });

  it('detects a machine on 9014 after the detection time, a human elsewhere', () => {
    const detect = (number: string) => {
      const h = new Harness(callOf({ endpoint: { type: 'PHONE', phoneNumber: number }, machineDetection: { enabled: true, detectionTime: 2 } }));
      h.apply(dialStep(h.call, T0, ctx));
      h.runUntil(T0 + 3499);
      assert.ok(!h.types().includes('MACHINE_DETECTION_FINISHED'), 'not before the detection time');
      h.runUntil(T0 + 3500);
      return h.events.at(-1);
    };
    assert.equal(detect('41793029014')?.properties?.detectionResult, 'MACHINE');
    assert.equal(detect('41793026727')?.properties?.detectionResult, 'HUMAN');
  });

  it('says text once its audio is ready, for its length, and reports the real duration', () => {
    const h = established();
    h.send(say('Your code is 1 2 3 4', { loopCount: 2, customData: { step: 'otp' } }));
    assert.equal(h.call.media.queue[0]?.state, 'preparing');
    h.runUntil(h.now, 1200);
    assert.deepEqual([h.call.media.queue[0]?.state, h.heard], ['playing', ['Your code is 1 2 3 4']]);
    const start = h.now;
    h.runUntil(start + 2399);
    assert.ok(!h.types().includes('SAY_FINISHED'));
    h.runUntil(start + 2400);
    assert.deepEqual(h.events.at(-1), { type: 'SAY_FINISHED', properties: { duration: 2400, playedCompletely: true, customData: { step: 'otp' } }, at: start + 2400 });
    assert.deepEqual(h.call.media.queue, []);
    assert.deepEqual(h.timeline.filter((e) => e.type === 'SAY').map((e) => [e.data.text, e.data.lengthMs]), [['Your code is 1 2 3 4', 2400]]);
  });

  it('queues actions and plays them one after the other; a scale of zero plays them at once', () => {
    const fast = established();
    const instant = new Harness(fast.call, { ...ctx, mediaScale: 0 });
    instant.send(say('one'));
    instant.send(say('two'));
    instant.runUntil(instant.now);
    assert.deepEqual(instant.types(), ['SAY_FINISHED', 'SAY_FINISHED']);
    assert.deepEqual(instant.heard, ['one', 'two']);
    assert.deepEqual(instant.events.map((e) => e.properties?.duration), [2000, 2000], 'the duration is the audio\'s, not the time it took');

    const h = established();
    h.send(say('first'));
    h.send(say('second'));
    h.runUntil(h.now);
    assert.deepEqual([h.heard, h.call.media.queue.map((a) => a.state)], [['first'], ['playing', 'ready']]);
    h.runUntil(h.now + 2000);
    assert.deepEqual(h.heard, ['first', 'second']);
  });

  it('stops on the terminator key with the captured digit, and ignores other keys', () => {
    const h = established();
    h.send(say('press hash', { stopOn: { terminator: '#' } }));
    h.runUntil(h.now);
    const started = h.now;
    h.now += 500;
    h.send({ kind: 'network', event: { type: 'dtmf', digits: '5' } });
    assert.equal(h.call.media.queue[0]?.state, 'playing');
    h.now += 250;
    h.send({ kind: 'network', event: { type: 'dtmf', digits: '#' } });
    assert.deepEqual(h.events.at(-1)?.properties, { duration: 750, playedCompletely: false, capturedDtmf: '#' });
    assert.equal(h.timers.some((t) => t.kind === 'media-end'), false);
    assert.equal(h.now - started, 750);
  });

  it('captures DTMF up to maxLength, to the terminator, or until a timeout', () => {
    const capture = (digitsPressed: string[], options: { terminator?: string } = {}) => {
      const h = established();
      h.send({ kind: 'capture-dtmf', capture: { maxLength: 4, timeoutMs: 5000, digitTimeoutMs: 2000, ...options } });
      for (const digits of digitsPressed) {
        h.now += 1000;
        h.send({ kind: 'network', event: { type: 'dtmf', digits } });
      }
      h.runUntil(h.now + 10_000);
      return h.events.filter((e) => e.type === 'DTMF_CAPTURED').map((e) => e.properties);
    };
    assert.deepEqual(capture(['1', '2', '3', '4', '5']), [{ dtmf: '1234', timeout: false }]);
    assert.deepEqual(capture(['1', '2#'], { terminator: '#' }), [{ dtmf: '12', timeout: false }]);
    assert.deepEqual(capture([]), [{ dtmf: '', timeout: true }]);
    assert.deepEqual(capture(['7', '8']), [{ dtmf: '78', timeout: true }]);
  });

  it('cuts a capture\'s prompt short with the first digit, which counts, and reports how the prompt played', () => {
    const h = established();
    h.send({
      kind: 'capture-dtmf',
      capture: { maxLength: 2, timeoutMs: 5000, digitTimeoutMs: 3000 },
      prompt: { type: 'PLAY', source: { kind: 'speech', text: 'enter two digits', language: 'en', speechRate: 1 }, loopCount: 1 },
    });
    h.runUntil(h.now);
    h.now += 400;
    h.send({ kind: 'network', event: { type: 'dtmf', digits: '42' } });
    assert.deepEqual(h.events.map((e) => [e.type, e.properties]).slice(-1), [
      ['DTMF_CAPTURED', { dtmf: '42', timeout: false, playedContentProperties: { duration: 400, playedCompletely: false } }],
    ]);
    assert.ok(!h.types().includes('PLAY_FINISHED'), 'a capture\'s prompt reports through DTMF_CAPTURED');
  });

  it('refuses what the state does not allow with a 400, and applies the hangup rules', () => {
    const calling = new Harness(callOf());
    rejects400(() => calling.send(say('too early')), 'callId');
    rejects400(() => calling.send({ kind: 'answer' }), 'callId');
    rejects400(() => calling.send({ kind: 'hangup', errorCode: 'NORMAL_HANGUP' }), 'errorCode');
    calling.send({ kind: 'hangup' });
    assert.deepEqual([calling.call.state, calling.call.errorCode, calling.call.hangupSource], ['CANCELLED', 10202, 'API']);
    rejects400(() => calling.send({ kind: 'hangup' }), 'callId');

    const talking = established();
    rejects400(() => talking.send({ kind: 'hangup', errorCode: 'BUSY' }), 'errorCode');
    talking.send({ kind: 'hangup', errorCode: 'MACHINE_DETECTED' });
    assert.deepEqual([talking.call.state, talking.call.errorCode, talking.types().at(-1)], ['FINISHED', 10002, 'CALL_FINISHED']);

    const inbound = new Harness(callOf({ direction: 'INBOUND' }));
    inbound.apply(receiveStep(inbound.call, T0));
    inbound.send({ kind: 'answer' });
    rejects400(() => inbound.send({ kind: 'hangup', errorCode: 'MACHINE_DETECTED' }), 'errorCode');
  });

  it('takes an inbound call through ringing, early media and answer; the caller gives up when nobody answers', () => {
    const h = new Harness(callOf({ direction: 'INBOUND' }));
    h.apply(receiveStep(h.call, T0));
    h.send({ kind: 'send-ringing' });
    h.send({ kind: 'pre-answer', ringing: false });
    h.send(say('please hold'));
    h.runUntil(T0);
    h.send({ kind: 'answer', customData: { agent: 'bot' } });
    assert.deepEqual(h.types().slice(0, 4), ['CALL_RECEIVED', 'CALL_RINGING', 'CALL_PRE_ESTABLISHED', 'CALL_ESTABLISHED']);
    assert.deepEqual([h.heard, h.call.customData], [['please hold'], { agent: 'bot' }]);

    const ignored = new Harness(callOf({ direction: 'INBOUND', connectTimeoutMs: 30_000 }));
    ignored.apply(receiveStep(ignored.call, T0));
    ignored.runUntil(T0 + 30_000);
    assert.deepEqual([ignored.call.state, ignored.call.errorCode, ignored.call.hangupSource], ['CANCELLED', 10202, 'ENDPOINT']);
  });

  it('goes on without an action whose audio failed, with an ERROR event', () => {
    const h = established();
    h.send({ kind: 'play', action: { type: 'PLAY', source: { kind: 'url', url: 'http://x/a.wav' }, loopCount: 1 } });
    h.send(say('after the failure'));
    const [playPrepare] = h.timers.filter((t) => t.kind === 'media-prepare');
    h.send({ kind: 'media-failed', actionId: Number(playPrepare!.data!.actionId), reason: 'HTTP 404', timerId: playPrepare!.id });
    assert.deepEqual(h.events.at(-1), { type: 'ERROR', properties: { actionType: 'PLAY', errorCode: 'MEDIA_ERROR', errorDetails: 'HTTP 404' }, at: h.now });
    h.runUntil(h.now + 5000);
    assert.deepEqual([h.call.state, h.heard, h.types().at(-1)], ['ESTABLISHED', ['after the failure'], 'SAY_FINISHED']);
  });

  it('fails a capture whose prompt cannot be prepared: an ERROR naming CAPTURE_DTMF, no digits awaited, and the call goes on', () => {
    const h = established();
    h.send({
      kind: 'capture-dtmf',
      capture: { maxLength: 2, timeoutMs: 5000, digitTimeoutMs: 3000 },
      prompt: { type: 'PLAY', source: { kind: 'url', url: 'http://x/prompt.wav' }, loopCount: 1 },
    });
    const [prepare] = h.timers.filter((t) => t.kind === 'media-prepare');
    h.send({ kind: 'media-failed', actionId: Number(prepare!.data!.actionId), reason: 'HTTP 404', timerId: prepare!.id });
    assert.deepEqual(h.events.at(-1)?.properties, { actionType: 'CAPTURE_DTMF', errorCode: 'MEDIA_ERROR', errorDetails: 'HTTP 404' });
    assert.deepEqual([h.call.media.capture, h.timers.map((t) => t.kind)], [undefined, ['max-duration']]);
    h.send({ kind: 'network', event: { type: 'dtmf', digits: '12' } });
    h.runUntil(h.now + 10_000);
    assert.deepEqual([h.call.state, h.types().slice(-1)], ['ESTABLISHED', ['ERROR']], 'no DTMF_CAPTURED after the failed capture');
  });

  it('runs a scripted call: speaks its text the times it says, again on the repeat keys, and hangs up once quiet', () => {
    const speech = { kind: 'speech' as const, text: 'Your code is 1 2 3 4', language: 'en', speechRate: 1 };
    const h = new Harness(callOf({ script: { speech, plays: 2, repeatDtmf: '1#' } }));
    h.apply(dialStep(h.call, T0, ctx));
    h.runUntil(T0 + 1500, 1000);
    assert.deepEqual(h.call.media.queue.map((a) => [a.type, a.loopCount, a.state]), [['SAY', 2, 'playing']]);
    h.runUntil(h.now + 2000, 1000);
    assert.deepEqual(h.timers.map((t) => t.kind).sort(), ['max-duration', 'script-end']);
    h.now += 1000;
    h.send({ kind: 'network', event: { type: 'dtmf', digits: '1#' } });
    assert.ok(!h.timers.some((t) => t.kind === 'script-end'), 'the repeat keys hold the hangup back');
    h.runUntil(h.now + 1000, 1000);
    assert.deepEqual(h.heard, ['Your code is 1 2 3 4', 'Your code is 1 2 3 4']);
    h.runUntil(h.now + 3999, 1000);
    assert.equal(h.call.state, 'ESTABLISHED');
    h.runUntil(h.now + 1, 1000);
    assert.deepEqual([h.call.state, h.call.errorCode, h.call.hangupSource], ['FINISHED', 10000, 'API']);
  });

  it('ends at maxDuration, when the platform loses the call, and ignores timers of an ended call', () => {
    const long = established({ maxDurationMs: 10_000 });
    long.runUntil(long.now + 10_000);
    assert.deepEqual([long.call.state, long.call.errorCode, long.call.hangupSource], ['FINISHED', 10004, 'PLATFORM']);

    const lost = established();
    lost.send({ kind: 'platform-lost' });
    assert.deepEqual([lost.call.state, lost.call.errorCode], ['FINISHED', 10309]);
    const ringing = new Harness(callOf({ state: 'RINGING' }));
    ringing.send({ kind: 'platform-lost' });
    assert.deepEqual([ringing.call.state, ringing.call.errorCode], ['FAILED', 10309]);

    const stale: CallTimer = { id: 99, kind: 'max-duration', dueAt: T0, accountId: 'acct', callPk: 1, callId: 'call-1' };
    const step = stepCall(lost.call, { kind: 'timer', timer: stale }, T0, ctx);
    assert.deepEqual([step?.events, step?.removeTimerIds, step?.call], [[], [99], lost.call]);
  });
});
