import type { FastifyBaseLogger } from 'fastify';
import type { Authenticator } from './core/auth/authenticator.js';
import type { Clock } from './core/clock.js';
import type { Metrics } from './core/metrics.js';
import type { WebhookSender } from './core/outbox/webhook-sender.js';
import type { Dispatcher } from './core/pipeline/dispatcher.js';
import type { StatusRecorder } from './core/pipeline/status-recorder.js';
import type { Store } from './core/store/types.js';
import type { SubscriptionMatcher } from './core/subscriptions/matcher.js';
import type { Config } from './config.js';
import type { SandboxNetwork } from './network/sandbox/sandbox-network.js';
import type { MessageWriter } from './sms/accept/message-writer.js';
import type { InboundService } from './sms/inbound/inbound-service.js';

export type Logger = FastifyBaseLogger;

/** The services of one running server, built once in server.ts and handed to each route module. */
export interface AppContext {
  config: Config;
  clock: Clock;
  store: Store;
  metrics: Metrics;
  log: Logger;
  authenticator: Authenticator;
  messageWriter: MessageWriter;
  dispatcher: Dispatcher;
  statusRecorder: StatusRecorder;
  sandbox: SandboxNetwork;
  inbound: InboundService;
  subscriptions: SubscriptionMatcher;
  webhookSender: WebhookSender;
}
