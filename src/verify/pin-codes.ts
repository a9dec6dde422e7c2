import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PinType } from '../core/store/types.js';

const ALPHABETS: Record<PinType, string> = {
  NUMERIC: '0123456789',
  ALPHA: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  HEX: '0123456789ABCDEF',
  ALPHANUMERIC: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
};

/**
 * The PIN of a pinId: HMAC-SHA256 under the deployment's secret key (a pseudo-random function of
 * the pinId, itself 128 random bits) mapped onto the alphabet without bias (bytes that would favour
 * the first letters are skipped). It is never stored: a resend derives the same PIN again, and
 * without the key nobody can.
 */
export function derivePin(key: Buffer, pinId: string, type: PinType, length: number): string {
  const alphabet = ALPHABETS[type];
  const usable = 256 - (256 % alphabet.length);
  let pin = '';
  for (let block = 0; pin.length < length; block++) {
    const bytes = createHmac('sha256', key).update(`pin:${pinId}:${type}:${length}:${block}`).digest();
    for (const byte of bytes) {
      if (byte >= usable) continue;
      pin += alphabet[byte % alphabet.length];
      if (pin.length === length) break;
    }
  }
  return pin;
}

/** What the store keeps of a PIN: a keyed hash, bound to its pinId. */
export const pinDigest = (key: Buffer, pinId: string, pin: string): string =>
  createHmac('sha256', key).update(`digest:${pinId}:${pin.toUpperCase()}`).digest('hex');

/** Whether a guess is the PIN, compared in constant time on their keyed hashes; letters in any case. */
export function isPin(key: Buffer, pinId: string, guess: string, digest: string): boolean {
  const expected = Buffer.from(digest, 'hex');
  const actual = Buffer.from(pinDigest(key, pinId, guess), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** How a voice call reads a PIN: one character at a time. */
export const spokenPin = (pin: string): string => pin.split('').join(' ');
