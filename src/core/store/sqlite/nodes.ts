import type { NodeStore } from '../types.js';
import { preparedOnce, type Db } from './shared.js';

export class SqliteNodeStore implements NodeStore {
  private readonly sql = preparedOnce(() => ({
    beat: this.db.prepare<[string, number, number]>(
      `INSERT INTO nodes (id, started_at, beat_at) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`,
    ),
    silent: this.db.prepare<[number], string>('SELECT id FROM nodes WHERE beat_at < ? ORDER BY beat_at').pluck(),
    forget: this.db.prepare<[string, number]>('DELETE FROM nodes WHERE id = ? AND beat_at < ?'),
    leave: this.db.prepare<[string]>('UPDATE nodes SET beat_at = 0 WHERE id = ?'),
  }));

  constructor(private readonly db: Db) {}

  async beat(nodeId: string, now: number): Promise<void> {
    this.sql().beat.run(nodeId, now, now);
  }

  async listSilentSince(before: number): Promise<string[]> {
    return this.sql().silent.all(before);
  }

  async forget(nodeIds: string[], silentBefore?: number): Promise<void> {
    const { forget } = this.sql();
    this.db.transaction(() => {
      for (const id of nodeIds) forget.run(id, silentBefore ?? Number.MAX_SAFE_INTEGER);
    }).immediate();
  }

  async leave(nodeId: string): Promise<void> {
    this.sql().leave.run(nodeId);
  }
}
