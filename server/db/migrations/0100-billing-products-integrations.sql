-- Which projects an organization member sees: every project of the organization (all_projects), or only those
-- where they are a project member (an invitation limited to project_ids).
ALTER TABLE organization_members ADD COLUMN all_projects boolean NOT NULL DEFAULT true;

-- Short label of the card on file, as the payment provider reported it (brand and last four digits).
ALTER TABLE billing_accounts ADD COLUMN payment_method_label text;

CREATE TABLE tax_ids (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  billing_account_id integer NOT NULL REFERENCES billing_accounts (id) ON DELETE CASCADE,
  country text,
  type text NOT NULL,
  value text NOT NULL,
  provider_ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tax_ids_account_type_value_key ON tax_ids (billing_account_id, type, value);

-- The local card provider's setup intents: the client secret is what the console's card form confirms against.
CREATE TABLE setup_intents (
  id text PRIMARY KEY,
  client_secret text NOT NULL UNIQUE,
  billing_account_id integer NOT NULL REFERENCES billing_accounts (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'requires_payment_method',
  payment_method_id text,
  payment_method_label text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX setup_intents_payment_method ON setup_intents (payment_method_id);

-- Amounts a billing account owes. Nothing issues invoices yet; account deletion already refuses while one is open.
CREATE TABLE invoices (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  billing_account_id integer NOT NULL REFERENCES billing_accounts (id) ON DELETE CASCADE,
  amount_cents integer NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'void')),
  payment_link text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE products (
  id integer PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  description text NOT NULL,
  is_available boolean NOT NULL DEFAULT true,
  tags text[] NOT NULL DEFAULT '{}',
  dependencies text[] NOT NULL DEFAULT '{}'
);

INSERT INTO products (id, slug, name, description, tags, dependencies) VALUES
  (1, 'clickhouse', 'ClickHouse', 'Column-oriented SQL database for analytics: managed clusters on AWS or GCP, or an external cluster you connect.', '{database,analytics}', '{}'),
  (2, 'grafana', 'Grafana', 'Dashboards and alerting over the data of your project, with datasources for the other products already configured.', '{dashboards,visualization}', '{}'),
  (3, 'hepic', 'Hepic', 'SIP and HEP capture: search, inspect and troubleshoot VoIP signalling and media quality.', '{voip,sip,hep}', '{}'),
  (4, 'loggen', 'Loggen', 'Log generator that sends sample logs to your project, to try queries and dashboards before real data arrives.', '{logs,testing}', '{qryn}'),
  (5, 'qryn', 'Observability', 'Storage and query for logs, metrics and traces (qryn), compatible with Loki, Prometheus and Tempo clients.', '{logs,metrics,traces}', '{}');

CREATE TABLE integrations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  product_slug text NOT NULL REFERENCES products (slug),
  status text NOT NULL CHECK (status IN ('trial', 'active', 'suspended', 'cancelled_by_user', 'scheduled_for_cancellation')),
  creator_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  trial_ends_at timestamptz,
  cancellation_at timestamptz
);
CREATE UNIQUE INDEX integrations_project_product_key ON integrations (project_id, product_slug);

-- The user lists of Grafana and Hepic: who may open the product in that project.
CREATE TABLE integration_users (
  integration_id integer NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL DEFAULT 'user',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (integration_id, user_id)
);
CREATE INDEX integration_users_user ON integration_users (user_id);

-- The console's telemetry: counts per event name and day, nothing personal.
CREATE TABLE telemetry_event_counts (
  day date NOT NULL,
  name text NOT NULL,
  count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, name)
);
