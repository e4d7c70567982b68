-- Hepic's ingestion keys and scoped tokens are kept as SHA-256 hashes (hex) with a short hint, like qryn's secrets
-- (docs/security.md): a copy of the database (a dump, a backup, the embedded database's write-ahead log) must not
-- let anyone send HEP into an instance. The plain value is shown once, when it is created or rotated
-- (docs/hepic.md). Existing rows are hashed here and their plain values dropped; convert_to gives the key's UTF-8
-- bytes (the same bytes the server hashes), and sha256() is built into PostgreSQL and PGlite.
ALTER TABLE hepic_instances ADD COLUMN api_key_hash text;
ALTER TABLE hepic_instances ADD COLUMN api_key_hint text;
UPDATE hepic_instances SET api_key_hash = encode(sha256(convert_to(api_key, 'UTF8')), 'hex'),
  api_key_hint = left(api_key, 8) || '…' || right(api_key, 4);
ALTER TABLE hepic_instances DROP COLUMN api_key;
ALTER TABLE hepic_instances ALTER COLUMN api_key_hash SET NOT NULL;
ALTER TABLE hepic_instances ALTER COLUMN api_key_hint SET NOT NULL;
ALTER TABLE hepic_instances ADD CONSTRAINT hepic_instances_api_key_hash_key UNIQUE (api_key_hash);

ALTER TABLE hepic_tokens ADD COLUMN token_hash text;
ALTER TABLE hepic_tokens ADD COLUMN token_hint text;
UPDATE hepic_tokens SET token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex'),
  token_hint = left(token, 8) || '…' || right(token, 4);
ALTER TABLE hepic_tokens DROP COLUMN token;
ALTER TABLE hepic_tokens ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE hepic_tokens ALTER COLUMN token_hint SET NOT NULL;
ALTER TABLE hepic_tokens ADD CONSTRAINT hepic_tokens_token_hash_key UNIQUE (token_hash);
