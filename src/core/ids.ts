import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';

/**
 * A lowercase UUID of version 7 (RFC 9562): the first 48 bits are the Unix time in milliseconds,
 * the rest random. Ids stored in unique indexes are made this way because random (version 4) ids
 * land on a random index page each, so every commit rewrites as many pages as it inserts rows;
 * time-ordered ids all go to the index's last page.
 */
export function timeOrderedUuid(now = Date.now()): string {
  return timePrefix(now) + randomUUID().slice(15);
}

// Ids are made thousands of times per millisecond under load: the time part is formatted once per
// millisecond (`xxxxxxxx-xxxx-7`, the version nibble included).
let prefixTime = Number.NaN;
let prefix = '';

function timePrefix(now: number): string {
  if (now !== prefixTime) {
    const time = now.toString(16).padStart(12, '0');
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixTime = now;
  }
  return prefix;
}

/** Generated SMS/RCS message and bulk ids: lowercase UUIDs, as Infobip's newer examples. */
export const newMessageId = (): string => timeOrderedUuid();
export const newBulkId = (): string => timeOrderedUuid();

/**
 * Random bytes drawn a page at a time: ids are made thousands of times a second, and a call into the
 * generator costs more than the id.
 */
const POOL = Buffer.alloc(4096);
let poolUsed = POOL.length;

/** Lowercase hex of `bytes` random bytes. */
export function randomHex(bytes: number): string {
  if (bytes > POOL.length) return randomBytes(bytes).toString('hex');
  if (poolUsed + bytes > POOL.length) {
    randomFillSync(POOL);
    poolUsed = 0;
  }
  const hex = POOL.toString('hex', poolUsed, poolUsed + bytes);
  poolUsed += bytes;
  return hex;
}

/** Inbound message ids look numeric in Infobip's examples: 18 digits. */
export function newInboundMessageId(): string {
  const digits = randomBytes(8).readBigUInt64BE() % 10n ** 18n;
  return digits.toString().padStart(18, '1');
}
