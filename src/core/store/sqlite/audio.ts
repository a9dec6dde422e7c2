import type { AudioStore, StoredAudio } from '../types.js';
import { nullToUndefined, orNull, preparedOnce, type Db, withoutBlockingOnLocks } from './shared.js';
import { omitUndefined } from '../../omit-undefined.js';

interface AudioRow {
  account_id: string;
  id: string;
  origin: StoredAudio['origin'];
  name: string;
  format: StoredAudio['format'];
  size: number;
  duration_ms: number;
  created_at: number;
  expires_at: number | null;
}

const DESCRIPTION = 'account_id, id, origin, name, format, size, duration_ms, created_at, expires_at';

const toAudio = (row: AudioRow): StoredAudio =>
  omitUndefined({
    accountId: row.account_id,
    id: row.id,
    origin: row.origin,
    name: row.name,
    format: row.format,
    size: row.size,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
    expiresAt: nullToUndefined(row.expires_at),
  });

export class SqliteAudioStore implements AudioStore {
  private readonly sql = preparedOnce(() => ({
    insert: this.db.prepare(
      `INSERT INTO call_audio (account_id, id, origin, name, format, size, duration_ms, bytes, created_at, expires_at)
       VALUES (@accountId, @id, @origin, @name, @format, @size, @durationMs, @bytes, @createdAt, @expiresAt)
       ON CONFLICT (account_id, id) DO NOTHING`,
    ),
    get: this.db.prepare<[string, string], AudioRow & { bytes: Buffer }>('SELECT * FROM call_audio WHERE account_id = ? AND id = ?'),
    describe: this.db.prepare<[string, string], AudioRow>(`SELECT ${DESCRIPTION} FROM call_audio WHERE account_id = ? AND id = ?`),
    page: this.db.prepare<[string, string, number, number], AudioRow>(
      `SELECT ${DESCRIPTION} FROM call_audio WHERE account_id = ? AND origin = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    ),
    count: this.db.prepare<[string, string], number>('SELECT count(*) FROM call_audio WHERE account_id = ? AND origin = ?').pluck(),
    delete: this.db.prepare<[string, string], AudioRow>(`DELETE FROM call_audio WHERE account_id = ? AND id = ? RETURNING ${DESCRIPTION}`),
    purge: this.db.prepare<[number]>('DELETE FROM call_audio WHERE expires_at IS NOT NULL AND expires_at < ?'),
  }));

  constructor(private readonly db: Db) {}

  async put(audio: StoredAudio, bytes: Uint8Array): Promise<void> {
    const row = { ...audio, expiresAt: orNull(audio.expiresAt), bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    await withoutBlockingOnLocks(this.db, () => this.sql().insert.run(row));
  }

  async get(accountId: string, id: string): Promise<{ audio: StoredAudio; bytes: Uint8Array } | undefined> {
    const row = this.sql().get.get(accountId, id);
    return row && { audio: toAudio(row), bytes: new Uint8Array(row.bytes) };
  }

  async describe(accountId: string, id: string): Promise<StoredAudio | undefined> {
    const row = this.sql().describe.get(accountId, id);
    return row && toAudio(row);
  }

  async list(accountId: string, origin: StoredAudio['origin'], page: number, size: number): Promise<{ results: StoredAudio[]; total: number }> {
    const { page: pageOf, count } = this.sql();
    return { results: pageOf.all(accountId, origin, size, page * size).map(toAudio), total: count.get(accountId, origin) ?? 0 };
  }

  async delete(accountId: string, id: string): Promise<StoredAudio | undefined> {
    const row = await withoutBlockingOnLocks(this.db, () => this.sql().delete.get(accountId, id));
    return row && toAudio(row);
  }

  async purgeExpired(now: number): Promise<number> {
    return this.sql().purge.run(now).changes;
  }
}
