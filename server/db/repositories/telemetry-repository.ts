import type { Queryable } from '../database';

/** Adds the batch's counts per event name to today's totals (one statement, so a batch is counted whole or not at all). */
export async function addTelemetryCounts(db: Queryable, counts: ReadonlyMap<string, number>): Promise<void> {
  if (counts.size === 0) return;
  await db.query(
    `INSERT INTO telemetry_event_counts (day, name, count)
     SELECT current_date, n, c FROM unnest($1::text[], $2::int[]) AS t(n, c)
     ON CONFLICT (day, name) DO UPDATE SET count = telemetry_event_counts.count + EXCLUDED.count`,
    [[...counts.keys()], [...counts.values()]],
  );
}

export async function readTelemetryCounts(db: Queryable): Promise<{ day: string; name: string; count: number }[]> {
  return db.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day, name, count FROM telemetry_event_counts ORDER BY day, name`);
}
