import type { TwoFactorApplication, TwoFactorApplicationStore, TwoFactorTemplate, TwoFactorTemplateStore } from '../types.js';
import { parseJson, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';

/** An application or template is kept whole as JSON beside its keys: nothing queries inside it. */
const body = <T extends { accountId: string }>(record: T): string => {
  const { accountId: _accountId, ...rest } = record;
  return JSON.stringify(rest);
};
const withAccount = <T>(accountId: string, text: string): T => ({ ...parseJson<Omit<T, 'accountId'>>(text), accountId }) as T;

export class SqliteTwoFactorApplicationStore implements TwoFactorApplicationStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string, string, number]>(
      'INSERT INTO twofa_applications (account_id, application_id, body, created_at) VALUES (?, ?, ?, ?)',
    ),
    get: this.db.prepare<[string, string], { body: string }>('SELECT body FROM twofa_applications WHERE account_id = ? AND application_id = ?'),
    list: this.db.prepare<[string], { body: string }>('SELECT body FROM twofa_applications WHERE account_id = ? ORDER BY created_at, application_id'),
    update: this.db.prepare<[string, string, string]>('UPDATE twofa_applications SET body = ? WHERE account_id = ? AND application_id = ?'),
  }));

  constructor(private readonly db: Db) {}

  async create(application: TwoFactorApplication): Promise<void> {
    await withoutBlockingOnLocks(this.db, () =>
      this.sql().insert.run(application.accountId, application.applicationId, body(application), application.createdAt),
    );
  }

  async get(accountId: string, applicationId: string): Promise<TwoFactorApplication | undefined> {
    const row = this.sql().get.get(accountId, applicationId);
    return row && withAccount<TwoFactorApplication>(accountId, row.body);
  }

  async list(accountId: string): Promise<TwoFactorApplication[]> {
    return this.sql().list.all(accountId).map((row) => withAccount<TwoFactorApplication>(accountId, row.body));
  }

  async update(application: TwoFactorApplication): Promise<boolean> {
    const result = await withoutBlockingOnLocks(this.db, () =>
      this.sql().update.run(body(application), application.accountId, application.applicationId),
    );
    return result.changes > 0;
  }
}

export class SqliteTwoFactorTemplateStore implements TwoFactorTemplateStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare<[string, string, string, string, number]>(
      'INSERT INTO twofa_templates (account_id, application_id, message_id, body, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    get: this.db.prepare<[string, string, string], { body: string }>(
      'SELECT body FROM twofa_templates WHERE account_id = ? AND application_id = ? AND message_id = ?',
    ),
    list: this.db.prepare<[string, string], { body: string }>(
      'SELECT body FROM twofa_templates WHERE account_id = ? AND application_id = ? ORDER BY created_at, message_id',
    ),
    update: this.db.prepare<[string, string, string, string]>(
      'UPDATE twofa_templates SET body = ? WHERE account_id = ? AND application_id = ? AND message_id = ?',
    ),
  }));

  constructor(private readonly db: Db) {}

  async create(template: TwoFactorTemplate): Promise<void> {
    await withoutBlockingOnLocks(this.db, () =>
      this.sql().insert.run(template.accountId, template.applicationId, template.messageId, body(template), template.createdAt),
    );
  }

  async get(accountId: string, applicationId: string, messageId: string): Promise<TwoFactorTemplate | undefined> {
    const row = this.sql().get.get(accountId, applicationId, messageId);
    return row && withAccount<TwoFactorTemplate>(accountId, row.body);
  }

  async list(accountId: string, applicationId: string): Promise<TwoFactorTemplate[]> {
    return this.sql().list.all(accountId, applicationId).map((row) => withAccount<TwoFactorTemplate>(accountId, row.body));
  }

  async update(template: TwoFactorTemplate): Promise<boolean> {
    const result = await withoutBlockingOnLocks(this.db, () =>
      this.sql().update.run(body(template), template.accountId, template.applicationId, template.messageId),
    );
    return result.changes > 0;
  }
}
