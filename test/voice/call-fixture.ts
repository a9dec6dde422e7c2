import { randomUUID } from 'node:crypto';
import type { NewCall } from '../../src/core/store/types.js';

/** An arbitrary fixed instant for call fixtures. */
export const CALL_T0 = Date.UTC(2025, 0, 1);

/** An outbound sandbox call to a phone, just created (CALLING), with no media. */
export function newCall(accountId: string, overrides: Partial<NewCall> = {}): NewCall {
  const phoneNumber = typeof overrides.endpoint?.phoneNumber === 'string' ? overrides.endpoint.phoneNumber : '41793026727';
  return {
    accountId,
    callId: randomUUID(),
    configurationId: 'conf-1',
    direction: 'OUTBOUND',
    endpoint: { type: 'PHONE', phoneNumber },
    from: '41790000000',
    to: phoneNumber,
    state: 'CALLING',
    startTime: CALL_T0,
    connectTimeoutMs: 60_000,
    maxDurationMs: 28_800_000,
    network: 'sandbox',
    nodeId: 'node-a',
    media: { nextId: 1, queue: [] },
    updatedAt: CALL_T0,
    ...overrides,
  };
}
