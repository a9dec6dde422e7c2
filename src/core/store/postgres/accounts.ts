import { randomUUID } from 'node:crypto';
import type { Account, AccountStore } from '../types.js';
import type { Row, Sql } from './shared.js';

const toAccount = (r: Row): Account => ({ id: r.id, name: r.name, createdAt: r.created_at });

export class PgAccountStore implements AccountStore {
  constructor(private readonly sql: Sql) {}

  async ensure(name: string, now: number): Promise<Account> {
    const inserted = await this.sql`
      INSERT INTO accounts (id, name, created_at) VALUES (${randomUUID()}, ${name}, ${now})
      ON CONFLICT (name) DO NOTHING
      RETURNING id, name, created_at`;
    if (inserted.length > 0) return toAccount(inserted[0]!);
    // Lost the race or already present: the row is committed, read it.
    const existing = await this.findByName(name);
    if (!existing) throw new Error(`account ${name} vanished while being ensured`);
    return existing;
  }

  async get(id: string): Promise<Account | undefined> {
    const rows = await this.sql`SELECT id, name, created_at FROM accounts WHERE id = ${id}`;
    return rows.length > 0 ? toAccount(rows[0]!) : undefined;
  }

  async findByName(name: string): Promise<Account | undefined> {
    const rows = await this.sql`SELECT id, name, created_at FROM accounts WHERE name = ${name}`;
    return rows.length > 0 ? toAccount(rows[0]!) : undefined;
  }
}
