import { createHash, randomBytes } from 'node:crypto';

// Hepic's ingestion keys (an instance's own key and its scoped tokens) are stored only as a SHA-256 hash with a
// hint (docs/hepic.md, "Keys"). The keys are 144 random bits, so a plain hash without salt or stretching is enough:
// there is nothing to guess from a dictionary. The HEP listener hashes the key a packet carries and looks the hash
// up; the plain value exists only in the answer that creates it.

export const newIngestToken = () => `hep_${randomBytes(18).toString('base64url')}`;

/** Hex SHA-256 of the key's UTF-8 bytes; migration 1800 computes the same in SQL for the rows it converted. */
export const hashIngestKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** What the console shows after creation: the prefix and the last characters, enough to tell keys apart. */
export const ingestKeyHint = (key: string) => `${key.slice(0, 8)}…${key.slice(-4)}`;
