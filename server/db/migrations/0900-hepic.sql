-- Hepic instances: one per project integration. The captured HEP packets live in ClickHouse (one database per
-- instance on the storage chosen at enable, see docs/hepic.md); here are the plan, the ingestion token and the
-- switches. Tokens are kept readable: the console shows them again (Data Ingestion, the Auth page's copy fields).
CREATE TABLE hepic_instances (
  id text PRIMARY KEY,
  integration_id integer NOT NULL UNIQUE REFERENCES integrations (id) ON DELETE CASCADE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  organization_id integer,
  cluster_id text NOT NULL,
  price_id text NOT NULL,
  storage_quota_bytes bigint,
  rotation_days integer NOT NULL,
  database_name text NOT NULL UNIQUE,
  api_key text NOT NULL UNIQUE,
  subdomain_prefix text NOT NULL UNIQUE,
  hepic_metrics_enabled boolean NOT NULL DEFAULT false,
  auto_add boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hepic_instances_project ON hepic_instances (project_id);

-- Scoped tokens (scope read) with an expiry: the HEP listener refuses a token past expires_at.
CREATE TABLE hepic_tokens (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  instance_id text NOT NULL REFERENCES hepic_instances (id) ON DELETE CASCADE,
  name text NOT NULL,
  scope text NOT NULL CHECK (scope = 'read'),
  token text NOT NULL UNIQUE,
  creator_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX hepic_tokens_instance ON hepic_tokens (instance_id);
