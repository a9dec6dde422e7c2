import type { Clock } from '../core/clock.js';
import type { Store, TwoFactorApplication, TwoFactorTemplate } from '../core/store/types.js';

interface Entry<T> {
  value: T | undefined;
  readAt: number;
}

/** Entries kept at most; past it the cache starts again (only very many applications get there). */
const MAX_ENTRIES = 10_000;

/**
 * Applications and templates as PIN sends and verifications read them, cached for `ttlMs` so that
 * the hot path does not read them per request. A change made through this node is seen at once
 * (`forget`); one made through another node within `ttlMs`.
 */
export class VerifySettingsCache {
  private readonly applications = new Map<string, Entry<TwoFactorApplication>>();
  private readonly templates = new Map<string, Entry<TwoFactorTemplate>>();

  constructor(
    private readonly deps: { store: Store; clock: Clock; ttlMs: number },
  ) {}

  application(accountId: string, applicationId: string): Promise<TwoFactorApplication | undefined> {
    return this.cached(this.applications, `${accountId}\u0000${applicationId}`, () => this.deps.store.twoFactorApplications.get(accountId, applicationId));
  }

  template(accountId: string, applicationId: string, messageId: string): Promise<TwoFactorTemplate | undefined> {
    return this.cached(this.templates, `${accountId}\u0000${applicationId}\u0000${messageId}`, () =>
      this.deps.store.twoFactorTemplates.get(accountId, applicationId, messageId),
    );
  }

  /** An application or one of its templates changed: read them afresh. */
  forget(accountId: string, applicationId: string): void {
    const prefix = `${accountId}\u0000${applicationId}`;
    this.applications.delete(prefix);
    for (const key of this.templates.keys()) if (key.startsWith(`${prefix}\u0000`)) this.templates.delete(key);
  }

  private async cached<T>(map: Map<string, Entry<T>>, key: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
    const now = this.deps.clock.now();
    const entry = map.get(key);
    if (entry && now - entry.readAt < this.deps.ttlMs) return entry.value;
    const value = await read();
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { value, readAt: now });
    return value;
  }
}
