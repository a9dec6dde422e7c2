import { randomUUID } from 'node:crypto';
import type { Account, AccountStore } from '../types.js';
import { preparedOnce, type Db } from './shared.js';
import { durable } from './wal-sync.js';

interface AccountRow {
  id: string;
  name: string;
  created_at: number;
}

const toAccount = (row: AccountRow): Account => ({ id: row.id, name: row.name, createdAt: row.created_at });

export class SqliteAccountStore implements AccountStore {
  private readonly sql = preparedOnce(() => ({
    insertIfAbsent: this.db.prepare<[string, string, number]>(
      'INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    ),
    byId: this.db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    byName: this.db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?'),
  }));

  constructor(private readonly db: Db) {}

  async ensure(name: string, now: number): Promise<Account> {
    const { insertIfAbsent, byName } = this.sql();
    // Insert-or-ignore then read: another process may create the same name concurrently.
    if (insertIfAbsent.run(randomUUID(), name, now).changes > 0) await durable(this.db);
    const row = byName.get(name);
    if (!row) throw new Error(`account ${name} vanished right after being ensured`);
    return toAccount(row);
  }

  async get(id: string): Promise<Account | undefined> {
    const row = this.sql().byId.get(id);
    return row && toAccount(row);
  }

  async findByName(name: string): Promise<Account | undefined> {
    const row = this.sql().byName.get(name);
    return row && toAccount(row);
  }
}
