import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerApplicationRoutes } from './applications.js';
import { registerPinListRoutes } from './pin-list.js';
import { registerPinRoutes } from './pins.js';
import { registerTemplateRoutes } from './templates.js';

/** Infobip's 2FA API: applications, message templates, PINs and verifications; and our list of an application's PINs. */
export function registerVerifyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerApplicationRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerPinRoutes(app, ctx);
  registerPinListRoutes(app, ctx);
}
