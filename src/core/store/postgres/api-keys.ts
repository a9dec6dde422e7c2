import type { ApiKeyRecord, ApiKeyStore } from '../types.js';
import type { Row, Sql } from './shared.js';

function toKey(r: Row): ApiKeyRecord {
  const key: ApiKeyRecord = {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    lookup: r.lookup,
    hash: r.hash,
    createdAt: r.created_at,
  };
  if (r.revoked_at !== null) key.revokedAt = r.revoked_at;
  return key;
}

export class PgApiKeyStore implements ApiKeyStore {
  constructor(private readonly sql: Sql) {}

  async create(key: Omit<ApiKeyRecord, 'revokedAt'>): Promise<ApiKeyRecord> {
    const rows = await this.sql`
      INSERT INTO api_keys (id, account_id, name, lookup, hash, created_at)
      VALUES (${key.id}, ${key.accountId}, ${key.name}, ${key.lookup}, ${key.hash}, ${key.createdAt})
      RETURNING *`;
    return toKey(rows[0]!);
  }

  async findByLookup(lookup: string): Promise<ApiKeyRecord[]> {
    const rows = await this.sql`SELECT * FROM api_keys WHERE lookup = ${lookup} ORDER BY created_at, id`;
    return rows.map(toKey);
  }

  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.sql`SELECT * FROM api_keys ORDER BY created_at, id`;
    return rows.map(toKey);
  }

  async revoke(id: string, at: number): Promise<boolean> {
    const rows = await this.sql`
      UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`;
    return rows.length > 0;
  }

  async countActive(accountId: string): Promise<number> {
    const rows = await this.sql`
      SELECT count(*) AS n FROM api_keys WHERE account_id = ${accountId} AND revoked_at IS NULL`;
    return rows[0]!.n;
  }
}
