import autocannon from 'autocannon';
import type { Child } from './processes.js';

/** The HTTP loads of `npm run bench` and the arithmetic of what it prints. */

export interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** One autocannon run of `options.duration` seconds. */
export async function load(options: autocannon.Options & { duration: number }): Promise<Load> {
  const result = await autocannon(options);
  return {
    // Only answers of 200 count: a refused or failed request is not an accepted one.
    requestsPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/** Runs `work` with `other` stopped (SIGSTOP), so that nothing of it runs meanwhile. */
export async function whilePaused<T>(other: Child, work: () => Promise<T>): Promise<T> {
  other.process.kill('SIGSTOP');
  try {
    return await work();
  } finally {
    other.process.kill('SIGCONT');
  }
}

export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Ratio of two figures, as a whole percentage. */
export const percent = (part: number, whole: number): string => `${((part / whole) * 100).toFixed(0)}%`;

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
