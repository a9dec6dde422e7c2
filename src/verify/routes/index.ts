import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerApplicationRoutes } from './applications.js';
import { registerPinRoutes } from './pins.js';
import { registerTemplateRoutes } from './templates.js';

/** Infobip's 2FA API: applications, message templates, PINs and verifications. */
export function registerVerifyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerApplicationRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerPinRoutes(app, ctx);
}
