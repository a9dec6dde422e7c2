import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerInboxRoute } from './inbox.js';
import { registerLogRoutes } from './logs-routes.js';
import { registerReportRoutes } from './reports-pull.js';

/** The SMS read side: pulled delivery reports, message logs and the inbound inbox, in both API generations. */
export function registerSmsReadRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerReportRoutes(app, ctx);
  registerLogRoutes(app, ctx);
  registerInboxRoute(app, ctx);
}
