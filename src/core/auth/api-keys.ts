import crypto, { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { randomHex } from '../ids.js';

/** Keys look like Infobip's: 32 lowercase hex characters, a hyphen, then a UUID. */
export function generateApiKey(): string {
  return `${randomHex(16)}-${randomUUID()}`;
}

// One-shot hashing (Node 20.12+) costs a third of a Hash object's; every request hashes its key.
const sha256Hex: (key: string) => string =
  typeof crypto.hash === 'function'
    ? (key) => crypto.hash('sha256', key, 'hex')
    : (key) => createHash('sha256').update(key, 'utf8').digest('hex');

/** Keys are random and long, so a fast hash is enough; a slow KDF would only cost throughput. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The part of a key kept in clear to find its row and to show in listings. */
export function keyLookup(key: string): string {
  return key.slice(0, 8);
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `App <key>`, scheme word in any case. Other schemes are not accepted. */
export function parseAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*app\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
