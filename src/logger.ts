import { pino } from 'pino';
import type { Config } from './config.js';
import type { Logger } from './context.js';

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    redact: { paths: ['req.headers.authorization', '*.password', '*.secret', '*.apiKey'], censor: '[redacted]' },
  });
}
