/** Accounts and their API keys. */

export interface Account {
  id: string;
  name: string;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** First characters of the key, safe to show and used to find the row. */
  lookup: string;
  /** SHA-256 of the whole key, hex. */
  hash: string;
  createdAt: number;
  revokedAt?: number;
}

export interface AccountStore {
  /** Returns the account with this name, creating it if absent. */
  ensure(name: string, now: number): Promise<Account>;
  get(id: string): Promise<Account | undefined>;
  findByName(name: string): Promise<Account | undefined>;
}

export interface ApiKeyStore {
  create(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<ApiKeyRecord>;
  findByLookup(lookup: string): Promise<ApiKeyRecord[]>;
  list(): Promise<ApiKeyRecord[]>;
  /** Returns false when no active key has this id. */
  revoke(id: string, at: number): Promise<boolean>;
  countActive(accountId: string): Promise<number>;
}
