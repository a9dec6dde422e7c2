import { createHmac } from 'node:crypto';
import type { WebhookSecurity } from '../store/types.js';

/** Header carrying the HMAC of the raw body: `<algorithm>=<lowercase hex>`, e.g. `sha256=9f2c…`. */
export const SIGNATURE_HEADER = 'X-Switchboard-Signature';

/** Infobip's HmacAlgorithm enum → Node digest names. */
const HMAC_DIGESTS: Record<string, string> = {
  HMAC_MD5: 'md5',
  HMAC_SHA_1: 'sha1',
  HMAC_SHA_224: 'sha224',
  HMAC_SHA_256: 'sha256',
  HMAC_SHA_384: 'sha384',
  HMAC_SHA_512: 'sha512',
};

export const HMAC_ALGORITHMS = Object.keys(HMAC_DIGESTS);
export const DEFAULT_HMAC_ALGORITHM = 'HMAC_SHA_256';

export function hmacSignature(algorithm: string | undefined, secret: string, body: string): string {
  const digest = HMAC_DIGESTS[algorithm ?? DEFAULT_HMAC_ALGORITHM] ?? 'sha256';
  return `${digest}=${createHmac(digest, secret).update(body, 'utf8').digest('hex')}`;
}

/** The headers a subscription's security adds to a POST of `body`. */
export function authHeaders(security: WebhookSecurity | undefined, body: string): Record<string, string> {
  if (!security) return {};
  if (security.type === 'BASIC') {
    const token = Buffer.from(`${security.username ?? ''}:${security.password ?? ''}`, 'utf8').toString('base64');
    return { Authorization: `Basic ${token}` };
  }
  if (security.type === 'HMAC' && security.secret !== undefined) {
    return { [SIGNATURE_HEADER]: hmacSignature(security.algorithm, security.secret, body) };
  }
  return {};
}
