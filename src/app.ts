import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { installAuthentication } from './core/auth/auth-hook.js';
import { documentErrorResponses } from './core/errors/error-schemas.js';
import { installErrorHandling, sendProblem } from './core/errors/error-handling.js';
import { registerEventsRoute } from './console/changes/events-route.js';
import { registerConsoleMessageRoutes } from './console/messages/message-routes.js';
import { registerConsolePage } from './console/page-routes.js';
import { registerOpenApi } from './core/openapi.js';
import { registerOpsRoutes } from './core/ops-routes.js';
import { registerWebhookRoutes } from './core/outbox/routes.js';
import { registerSubscriptionRoutes } from './core/subscriptions/routes.js';
import { installValidation } from './core/validation.js';
import type { AppContext } from './context.js';
import type { Logger } from './logger.js';
import { lazyRequestLogger } from './core/request-logger.js';
import { registerRcsReadRoutes } from './rcs/routes/read.js';
import { registerRcsSendRoutes } from './rcs/routes/send.js';
import { registerSandboxCallRoutes } from './sandbox-api/call-routes.js';
import { registerSandboxRcsRoutes } from './sandbox-api/rcs-routes.js';
import { registerSandboxRoutes } from './sandbox-api/routes.js';
import { registerSmsReadRoutes } from './sms/routes/read.js';
import { registerSmsSendRoutes } from './sms/routes/send.js';
import { version } from './version.js';
import { registerVerifyRoutes } from './verify/routes/index.js';
import { registerVoiceRoutes } from './voice/routes/index.js';

export interface AppOptions {
  logger: Logger;
  isReady: () => boolean;
  collectMetrics: () => Promise<string>;
  /** The built console to serve at /console (dist/console by default). */
  consoleDir?: string;
}

/** Builds the HTTP app: shared plugins first (errors, validation, auth, OpenAPI), then each module's routes. */
export async function buildApp(ctx: AppContext, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    // Per-request logs at tens of thousands of requests per second would cost more than the work itself.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: 16 * 1024 * 1024,
    // installErrorHandling answers 503 in the family's envelope instead.
    return503OnClosing: false,
    // Errors the router raises before any route runs (a malformed URL, a path parameter over
    // maxParamLength) would otherwise get Fastify's own body instead of an Infobip envelope.
    frameworkErrors: (error, request, reply) => {
      const violation = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'malformed URL';
      void sendProblem(request, reply, 400, [{ property: 'path', violation }]);
    },
    forceCloseConnections: 'idle',
    // Calls configuration and call ids run to 128 characters. Infobip's Node SDK puts a slash
    // before some query strings (`/2fa/2/pin/?ncNeeded=true`), which Infobip routes as without it.
    routerOptions: { maxParamLength: 256, ignoreTrailingSlash: true },
  }) as unknown as FastifyInstance;

  installErrorHandling(app);
  installValidation(app);
  installAuthentication(app, ctx.authenticator);
  await registerOpenApi(app, version);
  documentErrorResponses(app);

  registerOpsRoutes(app, { metrics: ctx.metrics, collect: options.collectMetrics, isReady: options.isReady });
  registerSmsSendRoutes(app, ctx);
  registerSmsReadRoutes(app, ctx);
  registerRcsSendRoutes(app, ctx);
  registerRcsReadRoutes(app, ctx);
  registerSubscriptionRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerConsoleMessageRoutes(app, ctx);
  registerEventsRoute(app, ctx.changes);
  await registerVoiceRoutes(app, ctx);
  registerVerifyRoutes(app, ctx);
  registerSandboxRoutes(app, ctx);
  registerSandboxCallRoutes(app, ctx);
  registerSandboxRcsRoutes(app, ctx);
  if (ctx.config.console) await registerConsolePage(app, options.consoleDir);
  return app;
}
