import type { ApiKeyRecord, ApiKeyStore } from '../types.js';
import { nullToUndefined, preparedOnce, type Db } from './shared.js';
import { durable } from './wal-sync.js';
import { omitUndefined } from '../../omit-undefined.js';

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  lookup: string;
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

const toApiKey = (row: ApiKeyRow): ApiKeyRecord =>
  omitUndefined({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    lookup: row.lookup,
    hash: row.hash,
    createdAt: row.created_at,
    revokedAt: nullToUndefined(row.revoked_at),
  });

export class SqliteApiKeyStore implements ApiKeyStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string, string, string, string, number]>(
      'INSERT INTO api_keys (id, account_id, name, lookup, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    byLookup: this.db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE lookup = ? ORDER BY created_at, id'),
    all: this.db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
    revoke: this.db.prepare<[number, string]>(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    countActive: this.db
      .prepare<[string], number>('SELECT count(*) FROM api_keys WHERE account_id = ? AND revoked_at IS NULL')
      .pluck(),
  }));

  constructor(private readonly db: Db) {}

  async create(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<ApiKeyRecord> {
    this.sql().insert.run(key.id, key.accountId, key.name, key.lookup, key.hash, key.createdAt);
    await durable(this.db);
    return { id: key.id, accountId: key.accountId, name: key.name, lookup: key.lookup, hash: key.hash, createdAt: key.createdAt };
  }

  async findByLookup(lookup: string): Promise<ApiKeyRecord[]> {
    return this.sql().byLookup.all(lookup).map(toApiKey);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.sql().all.all().map(toApiKey);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const revoked = this.sql().revoke.run(at, id).changes > 0;
    await durable(this.db);
    return revoked;
  }

  async countActive(accountId: string): Promise<number> {
    return this.sql().countActive.get(accountId) ?? 0;
  }
}
