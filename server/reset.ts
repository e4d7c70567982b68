import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { seedDemoData } from './db/seed';

// `npm run db:reset`: a clean database with the demo data. With DATABASE_URL the public schema is dropped and
// recreated (everything of this platform lives there); otherwise the embedded database folder is deleted.
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.databaseUrl) {
    const wipe = await openDatabase({ url: config.databaseUrl, migrate: false });
    await wipe.query('DROP SCHEMA IF EXISTS public CASCADE');
    await wipe.query('CREATE SCHEMA public');
    await wipe.close();
  } else {
    await rm(path.join(config.dataDir, 'pgdata'), { recursive: true, force: true });
  }
  const db = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  const { seeded } = config.seedDemoData ? await seedDemoData(db) : { seeded: false };
  await db.close();
  const demo = config.seedDemoData ? (seeded ? 'written' : 'already present') : 'not written (SEED_DEMO_DATA=false)';
  console.log(`Database reset (${config.databaseUrl ? 'PostgreSQL' : config.dataDir}); demo data ${demo}.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
