import type { NodeStore } from '../types.js';
import type { Sql } from './shared.js';

export class PgNodeStore implements NodeStore {
  constructor(private readonly sql: Sql) {}

  async beat(nodeId: string, now: number): Promise<void> {
    await this.sql`
      INSERT INTO nodes (id, started_at, beat_at) VALUES (${nodeId}, ${now}, ${now})
      ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`;
  }

  async listSilentSince(before: number): Promise<string[]> {
    const rows = await this.sql`SELECT id FROM nodes WHERE beat_at < ${before} ORDER BY beat_at`;
    return rows.map((r) => r.id as string);
  }

  async forget(nodeIds: string[], silentBefore?: number): Promise<void> {
    if (nodeIds.length === 0) return;
    await this.sql`DELETE FROM nodes WHERE id = ANY(${nodeIds}::text[]) AND beat_at < ${silentBefore ?? Number.MAX_SAFE_INTEGER}`;
  }

  async leave(nodeId: string): Promise<void> {
    await this.sql`UPDATE nodes SET beat_at = 0 WHERE id = ${nodeId}`;
  }
}
