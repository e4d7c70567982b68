-- Grafana: what the platform gave Grafana for each project (datasources, dashboards) and the integration's settings.
-- In HTTP mode (GRAFANA_URL and a service-account token) these rows mirror what was created through Grafana's API,
-- with Grafana's ids; in local mode they are the state itself, and the provisioning files are made from them
-- (docs/grafana.md). The Grafana users of a project are its integration_users rows.
CREATE TABLE grafana_configs (
  integration_id integer PRIMARY KEY REFERENCES integrations (id) ON DELETE CASCADE,
  auto_add_users boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE grafana_datasources (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  integration_id integer NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- loki, prometheus, tempo (the qryn datasources) or clickhouse (one per cluster).
  kind text NOT NULL CHECK (kind IN ('loki', 'prometheus', 'tempo', 'clickhouse')),
  cluster_id integer,
  uid text NOT NULL UNIQUE,
  name text NOT NULL,
  type text NOT NULL,
  url text NOT NULL,
  -- Grafana's numeric id and organization of the datasource.
  remote_id integer NOT NULL,
  org_id integer NOT NULL,
  -- The datasource as given to Grafana, without its secureJsonData (kept sealed below).
  model json NOT NULL,
  secure_sealed text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX grafana_datasources_name_key ON grafana_datasources (org_id, name);
CREATE UNIQUE INDEX grafana_datasources_qryn_key ON grafana_datasources (integration_id, kind) WHERE cluster_id IS NULL;
CREATE UNIQUE INDEX grafana_datasources_cluster_key ON grafana_datasources (integration_id, cluster_id) WHERE cluster_id IS NOT NULL;

CREATE TABLE grafana_dashboards (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  integration_id integer NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  cluster_id integer,
  uid text NOT NULL UNIQUE,
  title text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  remote_id integer NOT NULL,
  url text,
  model json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX grafana_dashboards_cluster_key ON grafana_dashboards (integration_id, cluster_id);

-- Local mode hands out Grafana-like numeric ids from here.
CREATE SEQUENCE grafana_local_ids;
