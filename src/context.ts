import type { ChangeFeed } from './console/changes/change-feed.js';
import type { Authenticator } from './core/auth/authenticator.js';
import type { Clock } from './core/clock.js';
import type { Metrics } from './core/metrics.js';
import type { Store } from './core/store/types.js';
import type { SubscriptionMatcher } from './core/subscriptions/matcher.js';
import type { Config } from './config.js';
import type { EngineHandle } from './engine/engine.js';
import type { MessageWriter } from './sms/accept/message-writer.js';
import type { InboundService } from './sms/inbound/inbound-service.js';
import type { CallsService } from './voice/calls-service.js';
import type { VerifyService } from './verify/verify-service.js';
import type { Logger } from './logger.js';


/** The services of one running server's HTTP side, built once in server.ts and handed to each route module. */
export interface AppContext {
  config: Config;
  clock: Clock;
  store: Store;
  /** The HTTP side's metrics; /metrics adds the engine's. */
  metrics: Metrics;
  log: Logger;
  authenticator: Authenticator;
  messageWriter: MessageWriter;
  /** The pipeline (dispatch, carriers, receipts, webhooks), inline or in its own thread. */
  engine: EngineHandle;
  /** Inbound messages injected over HTTP (the sandbox API). */
  inbound: InboundService;
  subscriptions: SubscriptionMatcher;
  /** Calls: created, acted on and read over HTTP (the Calls API and the sandbox's far end). */
  calls: CallsService;
  /** Two-factor verification: PINs sent by SMS or voice and verified. */
  verify: VerifyService;
  /** The console's live feed: what changed, per account, for GET /switchboard/1/events. */
  changes: ChangeFeed;
}
