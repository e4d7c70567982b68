-- qryn instances: one per project integration. The data lives in ClickHouse (one database per instance, see
-- docs/qryn.md); here are the settings and the credentials. The API secret and the scoped tokens are stored as
-- SHA-256 hashes (they are long random strings, so a fast hash is enough): they are shown once.
CREATE TABLE qryn_instances (
  id text PRIMARY KEY,
  integration_id integer NOT NULL UNIQUE REFERENCES integrations (id) ON DELETE CASCADE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  organization_id integer,
  cluster_id text NOT NULL,
  writer_region_code text NOT NULL,
  multi_org boolean NOT NULL DEFAULT false,
  ttl_addon_id text NOT NULL,
  ttl_days integer NOT NULL,
  fingerprint_limit integer NOT NULL DEFAULT 0,
  cache_enabled boolean NOT NULL DEFAULT false,
  use_drilldown boolean NOT NULL DEFAULT false,
  database_name text NOT NULL UNIQUE,
  api_key text NOT NULL UNIQUE,
  api_secret_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX qryn_instances_project ON qryn_instances (project_id);

CREATE TABLE qryn_tokens (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  instance_id text NOT NULL REFERENCES qryn_instances (id) ON DELETE CASCADE,
  name text NOT NULL,
  scope text NOT NULL CHECK (scope IN ('read', 'write', 'read write')),
  token_hash text NOT NULL UNIQUE,
  token_hint text NOT NULL,
  creator_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX qryn_tokens_instance ON qryn_tokens (instance_id);
