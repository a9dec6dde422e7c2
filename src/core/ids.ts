import { randomBytes, randomUUID } from 'node:crypto';

/** Generated SMS/RCS message and bulk ids: lowercase UUIDs, as Infobip's newer examples. */
export const newMessageId = (): string => randomUUID();
export const newBulkId = (): string => randomUUID();

/** Lowercase hex of `bytes` random bytes. */
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** Inbound message ids look numeric in Infobip's examples: 18 digits. */
export function newInboundMessageId(): string {
  const digits = randomBytes(8).readBigUInt64BE() % 10n ** 18n;
  return digits.toString().padStart(18, '1');
}
