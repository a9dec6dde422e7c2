import assert from 'node:assert/strict';
import type { ManualClock } from '../../src/core/clock.js';
import { SUBSCRIPTION_CHANNELS } from '../../src/core/subscriptions/subscription-channels.js';
import { WebhookReceiver } from '../core/outbox/webhook-receiver.js';
import { eventually, startTestServer, type TestServer } from '../helpers/server.js';

export const CONFIGURATION = 'voice-tests';

/** Every event Switchboard pushes on VOICE_VIDEO. */
export const PUSHED_EVENTS = [...SUBSCRIPTION_CHANNELS.VOICE_VIDEO.pushed];

export interface CallEvent {
  type: string;
  callId: string;
  callsConfigurationId: string;
  timestamp: string;
  properties?: Record<string, any>;
}

/** A server with a calls configuration whose VOICE_VIDEO subscription posts every event to a real local receiver. */
export class VoiceFixture {
  private constructor(
    readonly server: TestServer,
    readonly receiver: WebhookReceiver,
  ) {}

  static async start(options: { env?: Record<string, string>; clock?: ManualClock } = {}): Promise<VoiceFixture> {
    const server = await startTestServer(options);
    const receiver = await WebhookReceiver.start();
    const fixture = new VoiceFixture(server, receiver);
    const created = await server.request('POST', '/calls/1/configurations', { body: { id: CONFIGURATION, name: 'Voice tests' } });
    assert.equal(created.status, 201, created.text);
    const subscribed = await server.request('POST', '/subscriptions/1/subscription/VOICE_VIDEO', {
      body: { subscriptionId: 'voice-events', events: PUSHED_EVENTS, profile: { webhook: { notifyUrl: receiver.url } } },
    });
    assert.equal(subscribed.status, 201, subscribed.text);
    return fixture;
  }

  /** Creates an outbound call to a phone; returns its id. */
  async call(phoneNumber: string, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await this.server.request('POST', '/calls/1/calls', {
      body: { endpoint: { type: 'PHONE', phoneNumber }, from: '41790000000', callsConfigurationId: CONFIGURATION, ...extra },
    });
    assert.equal(response.status, 201, response.text);
    return response.json().id as string;
  }

  /** A call's events as posted so far, in arrival order. */
  events(callId: string): CallEvent[] {
    return this.receiver.posts.map((p) => p.body as unknown as CallEvent).filter((e) => e.callId === callId);
  }

  types(callId: string): string[] {
    return this.events(callId).map((e) => e.type);
  }

  /** Waits (real time) until the call has posted an event of this type; returns the first such. */
  async event(callId: string, type: string, timeoutMs = 10_000): Promise<CallEvent> {
    return eventually(async () => this.events(callId).find((e) => e.type === type), timeoutMs);
  }

  async action(callId: string, action: string, body?: unknown): Promise<{ status: number; json: any; text: string }> {
    const response = await this.server.request('POST', `/calls/1/calls/${callId}/${action}`, body === undefined ? {} : { body });
    return { status: response.status, json: response.text ? response.json() : undefined, text: response.text };
  }

  async close(): Promise<void> {
    await this.server.close();
    await this.receiver.close();
  }
}
