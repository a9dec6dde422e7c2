import type { TwoFactorApplication, TwoFactorApplicationStore, TwoFactorTemplate, TwoFactorTemplateStore } from '../types.js';
import type { Row, Sql } from './shared.js';

/** An application or template is kept whole as jsonb beside its keys: nothing queries inside it. */
const body = <T extends { accountId: string }>(record: T): string => {
  const { accountId: _accountId, ...rest } = record;
  return JSON.stringify(rest);
};
const withAccount = <T>(accountId: string, row: Row): T => ({ ...(row.body as Omit<T, 'accountId'>), accountId }) as T;

export class PgTwoFactorApplicationStore implements TwoFactorApplicationStore {
  constructor(private readonly sql: Sql) {}

  async create(a: TwoFactorApplication): Promise<void> {
    await this.sql`
      INSERT INTO twofa_applications (account_id, application_id, body, created_at)
      VALUES (${a.accountId}, ${a.applicationId}, ${body(a)}::text::jsonb, ${a.createdAt})`;
  }

  async get(accountId: string, applicationId: string): Promise<TwoFactorApplication | undefined> {
    const rows = await this.sql`SELECT body FROM twofa_applications WHERE account_id = ${accountId} AND application_id = ${applicationId}`;
    return rows.length > 0 ? withAccount<TwoFactorApplication>(accountId, rows[0]!) : undefined;
  }

  async list(accountId: string): Promise<TwoFactorApplication[]> {
    const rows = await this.sql`SELECT body FROM twofa_applications WHERE account_id = ${accountId} ORDER BY created_at, application_id`;
    return rows.map((row) => withAccount<TwoFactorApplication>(accountId, row));
  }

  async update(a: TwoFactorApplication): Promise<boolean> {
    const rows = await this.sql`
      UPDATE twofa_applications SET body = ${body(a)}::text::jsonb
      WHERE account_id = ${a.accountId} AND application_id = ${a.applicationId} RETURNING application_id`;
    return rows.length > 0;
  }
}

export class PgTwoFactorTemplateStore implements TwoFactorTemplateStore {
  constructor(private readonly sql: Sql) {}

  async create(t: TwoFactorTemplate): Promise<void> {
    await this.sql`
      INSERT INTO twofa_templates (account_id, application_id, message_id, body, created_at)
      VALUES (${t.accountId}, ${t.applicationId}, ${t.messageId}, ${body(t)}::text::jsonb, ${t.createdAt})`;
  }

  async get(accountId: string, applicationId: string, messageId: string): Promise<TwoFactorTemplate | undefined> {
    const rows = await this.sql`
      SELECT body FROM twofa_templates WHERE account_id = ${accountId} AND application_id = ${applicationId} AND message_id = ${messageId}`;
    return rows.length > 0 ? withAccount<TwoFactorTemplate>(accountId, rows[0]!) : undefined;
  }

  async list(accountId: string, applicationId: string): Promise<TwoFactorTemplate[]> {
    const rows = await this.sql`
      SELECT body FROM twofa_templates WHERE account_id = ${accountId} AND application_id = ${applicationId} ORDER BY created_at, message_id`;
    return rows.map((row) => withAccount<TwoFactorTemplate>(accountId, row));
  }

  async update(t: TwoFactorTemplate): Promise<boolean> {
    const rows = await this.sql`
      UPDATE twofa_templates SET body = ${body(t)}::text::jsonb
      WHERE account_id = ${t.accountId} AND application_id = ${t.applicationId} AND message_id = ${t.messageId} RETURNING message_id`;
    return rows.length > 0;
  }
}
