import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

/**
 * Encryption at rest of the identity server's secrets (token signing keys, cookie keys) with a key from the
 * environment (SECRETS_ENCRYPTION_KEY): whoever reads the database files, a backup or the write-ahead log sees
 * ciphertext only. AES-256-GCM; the key is derived from the setting with scrypt, so any long random text works.
 */
export interface SecretBox {
  seal(value: unknown): SealedSecret;
  open(sealed: SealedSecret): unknown;
}

export interface SealedSecret {
  sealed: 'aes-256-gcm';
  iv: string;
  tag: string;
  data: string;
}

// A fixed, public salt: the setting itself must carry the entropy (documented in docs/security.md).
const KEY_SALT = 'observability-platform/identity-secrets/v1';

export function createSecretBox(keyText: string): SecretBox {
  if (keyText.length < 16) throw new Error('SECRETS_ENCRYPTION_KEY must be at least 16 characters (a long random text).');
  const key = scryptSync(keyText, KEY_SALT, 32);
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return { sealed: 'aes-256-gcm', iv: iv.toString('base64url'), tag: cipher.getAuthTag().toString('base64url'), data: data.toString('base64url') };
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      try {
        const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64url')), decipher.final()]).toString('utf8');
        return JSON.parse(text) as unknown;
      } catch {
        throw new Error('The identity secrets cannot be decrypted: SECRETS_ENCRYPTION_KEY is not the key they were encrypted with.');
      }
    },
  };
}

export function isSealedSecret(value: unknown): value is SealedSecret {
  return typeof value === 'object' && value !== null && (value as { sealed?: unknown }).sealed === 'aes-256-gcm';
}

/** Reads a stored secret: opens a sealed one (refusing without the key), passes a plain one through. */
export function openStoredSecret<T>(value: unknown, box: SecretBox | undefined): T {
  if (!isSealedSecret(value)) return value as T;
  if (!box) throw new Error('The identity secrets in the database are encrypted: set SECRETS_ENCRYPTION_KEY to start.');
  return box.open(value) as T;
}
