import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/database';

// Secrets the ClickHouse back end must be able to read back (an external cluster's username and password, a new
// cluster's admin password until provisioning has checked it) are encrypted at rest with AES-256-GCM. The key is
// derived (HKDF-SHA256) from a platform secret kept in the database like the identity server's cookie keys: created
// by the first instance, shared by every instance, kept across restarts.

const SECRET_NAME = 'clickhouse_credentials_secret';

export interface CredentialBox {
  seal(value: unknown): string;
  open<T>(sealed: string): T;
}

export async function loadCredentialBox(db: Queryable): Promise<CredentialBox> {
  await db.query('INSERT INTO identity_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [SECRET_NAME, randomBytes(32).toString('base64url')]);
  const rows = await db.query<{ value: string }>('SELECT value FROM identity_secrets WHERE name = $1', [SECRET_NAME]);
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(rows[0].value, 'base64url'), 'clickhouse', 'credentials-at-rest', 32));
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open<T>(sealed: string): T {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1') throw new Error('Unknown credential format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')) as T;
    },
  };
}
