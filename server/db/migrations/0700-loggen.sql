-- Loggen's saved configuration, one per integration. Runs are jobs (kind 'loggen-run', subject 'loggen:<integration>').
CREATE TABLE loggen_configs (
  integration_id integer PRIMARY KEY REFERENCES integrations (id) ON DELETE CASCADE,
  -- json, not jsonb: jsonb reorders object keys, and the order of the log structure is the order of the fields in a line.
  config json NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
