import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerCallActionRoutes } from './actions.js';
import { registerCallRoutes } from './calls.js';
import { registerCallsConfigurationRoutes } from './configurations.js';
import { registerCallFileRoutes } from './files.js';

/** Infobip's Calls API: configurations, calls and their actions, audio files. */
export async function registerVoiceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerCallsConfigurationRoutes(app, ctx);
  registerCallRoutes(app, ctx);
  registerCallActionRoutes(app, ctx);
  await registerCallFileRoutes(app, ctx);
}
