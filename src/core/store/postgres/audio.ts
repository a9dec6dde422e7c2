import type { AudioStore, StoredAudio } from '../types.js';
import { opt, type Row, type Sql } from './shared.js';

function toAudio(r: Row): StoredAudio {
  const a: StoredAudio = {
    accountId: r.account_id,
    id: r.id,
    origin: r.origin,
    name: r.name,
    format: r.format,
    size: r.size,
    durationMs: r.duration_ms,
    createdAt: r.created_at,
  };
  if (r.expires_at !== null) a.expiresAt = r.expires_at;
  return a;
}

export class PgAudioStore implements AudioStore {
  constructor(private readonly sql: Sql) {}

  async put(a: StoredAudio, bytes: Uint8Array): Promise<void> {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.sql`
      INSERT INTO call_audio (account_id, id, origin, name, format, size, duration_ms, bytes, created_at, expires_at)
      VALUES (${a.accountId}, ${a.id}, ${a.origin}, ${a.name}, ${a.format}, ${a.size}, ${a.durationMs}, ${buffer},
              ${a.createdAt}, ${opt(a.expiresAt)})
      ON CONFLICT (account_id, id) DO NOTHING`;
  }

  async get(accountId: string, id: string): Promise<{ audio: StoredAudio; bytes: Uint8Array } | undefined> {
    const rows = await this.sql`SELECT * FROM call_audio WHERE account_id = ${accountId} AND id = ${id}`;
    if (rows.length === 0) return undefined;
    return { audio: toAudio(rows[0]!), bytes: new Uint8Array(rows[0]!.bytes as Buffer) };
  }

  async describe(accountId: string, id: string): Promise<StoredAudio | undefined> {
    const rows = await this.sql`
      SELECT account_id, id, origin, name, format, size, duration_ms, created_at, expires_at
      FROM call_audio WHERE account_id = ${accountId} AND id = ${id}`;
    return rows.length > 0 ? toAudio(rows[0]!) : undefined;
  }

  async list(accountId: string, origin: StoredAudio['origin'], page: number, size: number): Promise<{ results: StoredAudio[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.sql`
        SELECT account_id, id, origin, name, format, size, duration_ms, created_at, expires_at
        FROM call_audio WHERE account_id = ${accountId} AND origin = ${origin}
        ORDER BY created_at DESC, id LIMIT ${size} OFFSET ${page * size}`,
      this.sql`SELECT count(*)::int8 AS n FROM call_audio WHERE account_id = ${accountId} AND origin = ${origin}`,
    ]);
    return { results: rows.map(toAudio), total: count[0]!.n };
  }

  async delete(accountId: string, id: string): Promise<StoredAudio | undefined> {
    const rows = await this.sql`
      DELETE FROM call_audio WHERE account_id = ${accountId} AND id = ${id}
      RETURNING account_id, id, origin, name, format, size, duration_ms, created_at, expires_at`;
    return rows.length > 0 ? toAudio(rows[0]!) : undefined;
  }

  async purgeExpired(now: number): Promise<number> {
    const rows = await this.sql`DELETE FROM call_audio WHERE expires_at IS NOT NULL AND expires_at < ${now} RETURNING id`;
    return rows.length;
  }
}
