-- Long work (starting and stopping servers, deleting data, generator runs, retention) is a job: a request enqueues it
-- and returns; a worker in a platform process claims it with a lease and reports progress here. A job whose lease
-- ran out (its process died) is claimed again, so handlers are written to be safely re-run.
CREATE TABLE jobs (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  -- What the job is about, e.g. 'clickhouse-cluster:12': lets a page find the job of the thing it shows.
  subject text,
  -- json, not jsonb: a payload keeps its objects' key order (a log structure's field order, for one).
  payload json NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled')),
  progress_current integer NOT NULL DEFAULT 0,
  progress_max integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  result jsonb,
  error text,
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_claimable ON jobs (run_at, id) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_subject ON jobs (subject, id);
