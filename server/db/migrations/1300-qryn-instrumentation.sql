-- The project's ClickHouse clusters that a qryn instance scrapes (POST integrations/qryn/instrument): every minute a
-- job reads each cluster's system.metrics / system.events / system.asynchronous_metrics into the instance as
-- Prometheus series; the last scrape's outcome is kept here for GET instrumented-applications (docs/qryn.md).
CREATE TABLE qryn_instrumented_clusters (
  instance_id text NOT NULL REFERENCES qryn_instances (id) ON DELETE CASCADE,
  cluster_id text NOT NULL,
  name text NOT NULL,
  instrumented_at timestamptz NOT NULL DEFAULT now(),
  last_scrape_at timestamptz,
  last_scrape_samples integer,
  last_error text,
  PRIMARY KEY (instance_id, cluster_id)
);
