import type { Clock } from '../clock.js';
import type { ApiKeyStore } from '../store/types.js';
import { hashApiKey, hashesEqual, keyLookup } from './api-keys.js';

export interface Principal {
  accountId: string;
  keyId: string;
}

interface CacheEntry {
  principal: Principal | undefined;
  checkedAt: number;
}

/**
 * Resolves an API key to its account. Results are cached briefly by key hash so the hot path does
 * not read the store per request; a key revoked from another process stops working within `ttlMs`.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  /**
   * The recent answer for `key` without waiting: its principal, `null` for a key known to be
   * invalid, or `undefined` when the store must be asked (`authenticate`).
   */
  cached(key: string): Principal | null | undefined {
    const entry = this.cache.get(hashApiKey(key));
    if (!entry || this.clock.now() - entry.checkedAt >= this.ttlMs) return undefined;
    return entry.principal ?? null;
  }

  async authenticate(key: string): Promise<Principal | undefined> {
    const cached = this.cached(key);
    if (cached !== undefined) return cached ?? undefined;

    const hash = hashApiKey(key);
    const now = this.clock.now();
    const candidates = await this.keys.findByLookup(keyLookup(key));
    let principal: Principal | undefined;
    for (const candidate of candidates) {
      if (candidate.revokedAt === undefined && hashesEqual(candidate.hash, hash)) {
        principal = { accountId: candidate.accountId, keyId: candidate.id };
      }
    }
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(hash, { principal, checkedAt: now });
    return principal;
  }

  forget(): void {
    this.cache.clear();
  }
}
