// Issue 16 item 9: the embedded database's files are the platform user's alone (folders 700, files 600), and with
// SECRETS_ENCRYPTION_KEY the token signing keys and cookie keys are stored encrypted: neither the tables nor the
// files on disk (heap, write-ahead log) hold the private key, and a start without the key refuses.
import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { createSecretBox, isSealedSecret } from '../../server/identity/secret-box';
import { loadOrCreateSigningKeys } from '../../server/identity/signing-keys';
import { decodeJwtHeader, signIn } from '../support/sign-in';
import { startTestPlatform } from '../support/start-platform';
import { createTestUser, PASSWORD } from './fixtures';

const KEY = 'a-long-random-secret-for-the-tests-0123456789';

async function filesUnder(dir: string): Promise<{ path: string; mode: number; directory: boolean }[]> {
  const found: { path: string; mode: number; directory: boolean }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    found.push({ path: full, mode: (await stat(full)).mode & 0o777, directory: entry.isDirectory() });
    if (entry.isDirectory()) found.push(...(await filesUnder(full)));
  }
  return found;
}

describe('the embedded database on disk', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the data folder 700 and every file 600, after opening and after closing', { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'modes-'));
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir });
    await db.query("INSERT INTO identity_secrets (name, value) VALUES ('probe', '1')");
    const check = async () => {
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      const entries = await filesUnder(dataDir);
      expect(entries.length).toBeGreaterThan(100);
      expect(entries.filter((e) => e.directory && e.mode !== 0o700).map((e) => e.path)).toEqual([]);
      expect(entries.filter((e) => !e.directory && e.mode !== 0o600).map((e) => e.path)).toEqual([]);
    };
    await check();
    await db.close();
    await check();
  });

  it('stores the signing keys sealed with the key: no file holds the private key, and a wrong or missing key is refused', { timeout: 90_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sealed-'));
    dirs.push(dataDir);
    const box = createSecretBox(KEY);
    const db = await openDatabase({ dataDir });
    const keys = await loadOrCreateSigningKeys(db, box);
    const privateExponent = String(keys.privateJwks[0].d);
    expect(privateExponent.length).toBeGreaterThan(100);
    const [row] = await db.query<{ private_jwk: unknown }>('SELECT private_jwk FROM signing_keys');
    expect(isSealedSecret(row.private_jwk)).toBe(true);
    expect(JSON.stringify(row.private_jwk)).not.toContain(privateExponent);
    await expect(loadOrCreateSigningKeys(db)).rejects.toThrow(/SECRETS_ENCRYPTION_KEY/);
    await expect(loadOrCreateSigningKeys(db, createSecretBox(`${KEY}-other`))).rejects.toThrow(/not the key/);
    expect((await loadOrCreateSigningKeys(db, box)).privateJwks[0].kid).toBe(keys.privateJwks[0].kid);
    await db.close();
    // Heap files and write-ahead log alike: the private exponent appears nowhere on disk.
    for (const file of (await filesUnder(dataDir)).filter((e) => !e.directory)) {
      const content = await readFile(file.path);
      expect(content.includes(Buffer.from(privateExponent)), file.path).toBe(false);
    }
  });

  it('seals keys written before a key was given at the next start with the key', { timeout: 90_000 }, async () => {
    const db = await openDatabase({});
    const plain = await loadOrCreateSigningKeys(db);
    const [before] = await db.query<{ private_jwk: unknown }>('SELECT private_jwk FROM signing_keys');
    expect(isSealedSecret(before.private_jwk)).toBe(false);
    const box = createSecretBox(KEY);
    const sealed = await loadOrCreateSigningKeys(db, box);
    expect(sealed.privateJwks).toEqual(plain.privateJwks);
    const [after] = await db.query<{ private_jwk: unknown }>('SELECT private_jwk FROM signing_keys');
    expect(isSealedSecret(after.private_jwk)).toBe(true);
    await db.close();
  });
});

describe('a platform started with SECRETS_ENCRYPTION_KEY', () => {
  it('signs in, keeps its cookie keys sealed too, and refuses to start again without the key', { timeout: 120_000 }, async () => {
    const platform = await startTestPlatform({ seed: false, env: { SECRETS_ENCRYPTION_KEY: KEY } });
    try {
      await createTestUser(platform.db, 'sealed@example.com');
      const tokens = await signIn(platform.url, 'sealed@example.com', PASSWORD);
      expect(tokens.accessToken.split('.')).toHaveLength(3);
      const [cookieKeys] = await platform.db.query<{ value: string }>("SELECT value FROM identity_secrets WHERE name = 'cookie_keys'");
      expect(isSealedSecret(JSON.parse(cookieKeys.value))).toBe(true);
      await platform.stopKeepingData();
      await expect(startTestPlatform({ seed: false, dataDir: platform.dataDir, databaseUrl: platform.databaseUrl })).rejects.toThrow(/SECRETS_ENCRYPTION_KEY/);
      const again = await startTestPlatform({ seed: false, dataDir: platform.dataDir, databaseUrl: platform.databaseUrl, env: { SECRETS_ENCRYPTION_KEY: KEY } });
      try {
        // The same signing key, opened with the key from the environment.
        const later = await signIn(again.url, 'sealed@example.com', PASSWORD);
        expect(decodeJwtHeader(later.accessToken).kid).toBe(decodeJwtHeader(tokens.accessToken).kid);
      } finally {
        await again.stopKeepingData();
      }
    } finally {
      await platform.stop();
    }
  });
});
