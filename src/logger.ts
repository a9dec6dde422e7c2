import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from './config.js';

/** The structured logger every module takes (pino's, as Fastify types it). */
export type Logger = FastifyBaseLogger;

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    redact: { paths: ['req.headers.authorization', '*.password', '*.secret', '*.apiKey'], censor: '[redacted]' },
  });
}
