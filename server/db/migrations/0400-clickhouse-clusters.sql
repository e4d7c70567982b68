-- ClickHouse clusters of a project: managed (run by the platform's provisioner) or external (a server the customer
-- runs; the platform keeps its address and encrypted credentials). A managed cluster's admin password is kept only
-- as the SHA-256 the server checks; pending_admin_secret holds it encrypted until the provisioning job has checked
-- that every node answers with it, then it is cleared.
CREATE TABLE clickhouse_clusters (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  integration_id integer REFERENCES integrations (id) ON DELETE SET NULL,
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('creating', 'active', 'deleting', 'failed', 'stopped', 'external')),
  status_reason text,
  is_external boolean NOT NULL DEFAULT false,
  provider text NOT NULL DEFAULT 'unknown',
  region_code text,
  machine text,
  shards integer NOT NULL DEFAULT 1,
  replicas integer NOT NULL DEFAULT 1,
  disks jsonb NOT NULL DEFAULT '[]',
  version text NOT NULL DEFAULT '',
  zonal boolean NOT NULL DEFAULT false,
  zones text[] NOT NULL DEFAULT '{}',
  control_plane_zone text,
  ip_safe_list text[] NOT NULL DEFAULT '{}',
  admin_user text NOT NULL DEFAULT '',
  admin_password_sha256 text,
  pending_admin_secret text,
  host text NOT NULL DEFAULT '',
  http_port integer NOT NULL DEFAULT 0,
  tcp_port integer NOT NULL DEFAULT 0,
  secure boolean NOT NULL DEFAULT false,
  external_credentials text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX clickhouse_clusters_project_name_key ON clickhouse_clusters (project_id, name);

-- The server processes of a managed cluster (local provisioner): ports, folder and pid, so a restarted platform
-- finds them again. Several nodes share a process when the cluster has more nodes than the local cap.
CREATE TABLE clickhouse_processes (
  cluster_id integer NOT NULL REFERENCES clickhouse_clusters (id) ON DELETE CASCADE,
  idx integer NOT NULL,
  http_port integer NOT NULL,
  tcp_port integer NOT NULL,
  data_dir text NOT NULL,
  pid integer,
  PRIMARY KEY (cluster_id, idx)
);

CREATE TABLE clickhouse_nodes (
  cluster_id integer NOT NULL REFERENCES clickhouse_clusters (id) ON DELETE CASCADE,
  shard integer NOT NULL,
  replica integer NOT NULL,
  process_idx integer NOT NULL,
  -- The node's own database when it shares a process with other nodes; null when it has the process to itself.
  database text,
  PRIMARY KEY (cluster_id, shard, replica)
);
