import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/core/clock.js';
import { formatInfobipTime } from '../../src/core/infobip-time.js';
import { eventually } from '../helpers/server.js';
import { CONFIGURATION, VoiceFixture, type CallEvent } from './voice-fixture.js';

const ENVELOPE = ['callId', 'callsConfigurationId', 'properties', 'timestamp', 'type'];
const CALL_LOG = [
  'callId',
  'callsConfigurationIds',
  'conferenceIds',
  'direction',
  'duration',
  'endTime',
  'endpoint',
  'errorCode',
  'from',
  'hangupSource',
  'hasCameraVideo',
  'hasScreenshareVideo',
  'startTime',
  'state',
  'to',
];

/**
 * How calls end, over HTTP, with the sandbox at real-time pace (latency 1500 ms: ringing after
 * 300 ms, the answer after 1 500 ms) on a manual clock: the test moves time to each step, so every
 * event's timestamp is the instant the sandbox documents for it.
 */
describe('call outcomes over HTTP, on a manual clock', () => {
  const clock = new ManualClock(Date.UTC(2025, 6, 1));
  let voice: VoiceFixture;
  before(async () => {
    voice = await VoiceFixture.start({ clock, env: { SWITCHBOARD_SANDBOX_LATENCY_MS: '1500' } });
  });
  after(() => voice.close());

  /** A call's events as [type, milliseconds after `t0`, the state they carry]. */
  const story = (callId: string, t0: number) =>
    voice.events(callId).map((e) => [e.type, Date.parse(e.timestamp.replace('+0000', 'Z')) - t0, e.properties?.call?.state ?? e.properties?.callLog?.state]);

  /** Moves the clock, then waits for the call's event of this type. */
  const later = async (ms: number, callId: string, type: string): Promise<CallEvent> => {
    clock.advance(ms);
    return voice.event(callId, type);
  };

  /**
   * Says a short word on an answered call and lets it play out (moving the clock by its length);
   * returns its length. A say is prepared by an engine, which runs every timer of the call due
   * before it first: a timer that fell due early has had its effect by the time the speech plays.
   */
  const speakOnce = async (id: string): Promise<number> => {
    const said = await voice.action(id, 'say', { text: 'Goodbye', language: 'en' });
    assert.equal(said.status, 200, said.text);
    const count = voice.types(id).filter((t) => t === 'SAY_FINISHED').length;
    const says = await eventually(async () => {
      const timeline = (await voice.server.request('GET', `/sandbox/1/calls/${id}/timeline`)).json().entries as Array<{ type: string; lengthMs: number }>;
      const found = timeline.filter((e) => e.type === 'SAY');
      return found.length > count ? found : undefined;
    });
    const spoken = says.at(-1)!.lengthMs;
    clock.advance(spoken);
    await eventually(async () => (voice.types(id).filter((t) => t === 'SAY_FINISHED').length > count ? true : undefined));
    return spoken;
  };

  const assertEnvelopes = (callId: string) => {
    for (const event of voice.events(callId)) {
      assert.deepEqual([Object.keys(event).sort(), event.callId, event.callsConfigurationId], [ENVELOPE, callId, CONFIGURATION], event.type);
      if (event.type.startsWith('CALL_') && !['CALL_FINISHED', 'CALL_FAILED'].includes(event.type)) {
        assert.deepEqual(Object.keys(event.properties!).sort(), ['apiBaseUrl', 'call'], event.type);
        assert.equal(event.properties!.call.id, callId);
      }
    }
  };

  /** The CallLog of the call's last event, which the call's history gives too. */
  const finalLog = async (callId: string, end: CallEvent): Promise<Record<string, any>> => {
    const log = end.properties!.callLog;
    const history = await voice.server.request('GET', `/calls/1/calls/${callId}/history`);
    assert.deepEqual(history.json(), log, 'the history holds the CallLog the event carried');
    return log;
  };

  it('ends a busy and an unreachable call at the first ring: CALL_STARTED, then CALL_FAILED with the CallLog', async () => {
    for (const [number, state, error] of [
      ['41793029011', 'BUSY', { id: 10201, name: 'BUSY' }],
      ['41793029013', 'FAILED', { id: 10304, name: 'DESTINATION_UNAVAILABLE' }],
    ] as const) {
      const t0 = clock.now();
      const id = await voice.call(number);
      await voice.event(id, 'CALL_STARTED');
      const failed = await later(300, id, 'CALL_FAILED');
      assert.deepEqual(story(id, t0), [['CALL_STARTED', 0, 'CALLING'], ['CALL_FAILED', 300, state]], number);
      assertEnvelopes(id);
      const log = await finalLog(id, failed);
      assert.deepEqual(Object.keys(log).sort(), CALL_LOG, 'no answerTime nor ringDuration: it never rang');
      assert.deepEqual(
        [log.state, log.errorCode.id, log.errorCode.name, log.hangupSource, log.duration, log.startTime, log.endTime],
        [state, error.id, error.name, 'ENDPOINT', 0, formatInfobipTime(t0), formatInfobipTime(t0 + 300)],
      );
      assert.equal(typeof log.errorCode.description, 'string');
    }
  });

  it('lets an unanswered call ring until its connectTimeout: CALL_STARTED, CALL_RINGING, CALL_FAILED with NO_ANSWER', async () => {
    const t0 = clock.now();
    const id = await voice.call('41793029012', { connectTimeout: 5 });
    await voice.event(id, 'CALL_STARTED');
    await later(300, id, 'CALL_RINGING');
    const failed = await later(4700, id, 'CALL_FAILED');
    assert.deepEqual(story(id, t0), [['CALL_STARTED', 0, 'CALLING'], ['CALL_RINGING', 300, 'RINGING'], ['CALL_FAILED', 5000, 'NO_ANSWER']]);
    assertEnvelopes(id);
    const log = await finalLog(id, failed);
    assert.deepEqual(Object.keys(log).sort(), [...CALL_LOG, 'ringDuration'].sort());
    assert.deepEqual(
      [log.state, log.errorCode.id, log.errorCode.name, log.hangupSource, log.duration, log.ringDuration],
      ['NO_ANSWER', 10200, 'NO_ANSWER', 'PLATFORM', 0, 5],
    );
  });

  it('reports machine detection after the answer, once its detectionTime has passed, between what the call says; the application then hangs up', async () => {
    /** Calls the number and lets the 2 s of detection pass, as `meanwhile` likes, up to its last millisecond. */
    const detect = async (number: string, meanwhile: (id: string) => Promise<number> = async () => 0) => {
      const t0 = clock.now();
      const id = await voice.call(number, { machineDetection: { enabled: true, detectionTime: 2 }, customData: { campaign: 'july' } });
      await voice.event(id, 'CALL_STARTED');
      await later(300, id, 'CALL_RINGING');
      const established = await later(1200, id, 'CALL_ESTABLISHED');
      assert.equal(established.properties!.call.machineDetection, undefined, 'not known at the answer');
      const passed = await meanwhile(id);
      clock.advance(1999 - passed);
      const detected = await later(1, id, 'MACHINE_DETECTION_FINISHED');
      return { id, t0, detected };
    };

    // The application speaks twice while detection runs, the second time to 1 ms before it ends:
    // had detection come early, its event would come before that speech's (see speakOnce).
    let spoken = 0;
    const machine = await detect('41793029014', async (id) => {
      spoken = await speakOnce(id);
      assert.ok(spoken > 0 && spoken < 900, `${spoken} ms of speech`);
      clock.advance(1999 - 2 * spoken);
      await speakOnce(id);
      return 1999;
    });
    assert.deepEqual(Object.keys(machine.detected.properties!).sort(), ['confidenceRating', 'customData', 'detectionResult']);
    assert.deepEqual([machine.detected.properties!.detectionResult, machine.detected.properties!.customData], ['MACHINE', { campaign: 'july' }]);
    assert.ok(machine.detected.properties!.confidenceRating.MACHINE > machine.detected.properties!.confidenceRating.HUMAN);
    const hungUp = await voice.action(machine.id, 'hangup', { errorCode: 'MACHINE_DETECTED' });
    assert.equal(hungUp.status, 200, hungUp.text);
    const finished = await voice.event(machine.id, 'CALL_FINISHED');
    assert.deepEqual(story(machine.id, machine.t0), [
      ['CALL_STARTED', 0, 'CALLING'],
      ['CALL_RINGING', 300, 'RINGING'],
      ['CALL_ESTABLISHED', 1500, 'ESTABLISHED'],
      ['SAY_FINISHED', 1500 + spoken, undefined],
      ['SAY_FINISHED', 3499, undefined],
      ['MACHINE_DETECTION_FINISHED', 3500, undefined],
      ['CALL_FINISHED', 3500, 'FINISHED'],
    ]);
    assertEnvelopes(machine.id);
    const log = await finalLog(machine.id, finished);
    assert.deepEqual(
      [log.errorCode.id, log.errorCode.name, log.hangupSource, log.duration, log.machineDetection.detectionResult],
      [10002, 'MACHINE_DETECTED', 'API', 2, 'MACHINE'],
    );

    const human = await detect('41793026727');
    assert.equal(human.detected.properties!.detectionResult, 'HUMAN');
    assert.deepEqual(
      story(human.id, human.t0).map(([type, at]) => [type, at]),
      [['CALL_STARTED', 0], ['CALL_RINGING', 300], ['CALL_ESTABLISHED', 1500], ['MACHINE_DETECTION_FINISHED', 3500]],
    );
    await voice.action(human.id, 'hangup', {});
  });

  it('ends an answered call at its maxDuration, counted from the answer, with MAX_DURATION_REACHED in the event and the history', async () => {
    const t0 = clock.now();
    const id = await voice.call('41793026727', { maxDuration: 3 });
    await voice.event(id, 'CALL_STARTED');
    await later(300, id, 'CALL_RINGING');
    await later(1200, id, 'CALL_ESTABLISHED');
    // The application speaks twice; the second time ends 1 ms before the limit. Had the limit come
    // early, the call would have ended before the speech (see speakOnce).
    const spoken = await speakOnce(id);
    assert.ok(spoken > 0 && spoken < 1400, `${spoken} ms of speech`);
    clock.advance(3000 - 2 * spoken - 1);
    await speakOnce(id);
    const finished = await later(1, id, 'CALL_FINISHED');
    assert.deepEqual(story(id, t0), [
      ['CALL_STARTED', 0, 'CALLING'],
      ['CALL_RINGING', 300, 'RINGING'],
      ['CALL_ESTABLISHED', 1500, 'ESTABLISHED'],
      ['SAY_FINISHED', 1500 + spoken, undefined],
      ['SAY_FINISHED', 4499, undefined],
      ['CALL_FINISHED', 4500, 'FINISHED'],
    ]);
    assertEnvelopes(id);
    const log = await finalLog(id, finished);
    assert.deepEqual(
      [log.state, log.errorCode.id, log.errorCode.name, log.hangupSource, log.duration, log.answerTime, log.endTime],
      ['FINISHED', 10004, 'MAX_DURATION_REACHED', 'PLATFORM', 3, formatInfobipTime(t0 + 1500), formatInfobipTime(t0 + 4500)],
    );
    const ended = (await voice.server.request('GET', '/calls/1/calls/history?status=FINISHED')).json().results as Array<{ callId: string; errorCode: { name: string } }>;
    assert.equal(ended.find((c) => c.callId === id)?.errorCode.name, 'MAX_DURATION_REACHED');
    assert.equal((await voice.server.request('GET', `/calls/1/calls/${id}`)).json().state, 'FINISHED');
  });
});
