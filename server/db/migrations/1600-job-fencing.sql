-- Fenced job runs: each claim gets a fresh token; heartbeats, progress and the final write only land while the row
-- still carries that token, so a run whose lease ran out (and was claimed again, or failed) can no longer write.
ALTER TABLE jobs ADD COLUMN claim_token text;
-- Whose work a tenant job is (an organization): a per-tenant limit keeps one organization from taking every slot.
ALTER TABLE jobs ADD COLUMN tenant text;
CREATE INDEX jobs_running_tenant ON jobs (tenant) WHERE status = 'running';
CREATE INDEX jobs_kind_open ON jobs (kind) WHERE status IN ('queued', 'running');
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE status IN ('done', 'failed', 'cancelled');

-- Recurring work (retention, rotation, instrumentation, cleanups): one row per kind. The worker turns a schedule into
-- its next job whenever no job of that kind is queued or running, whatever the last run's outcome, so a failed run
-- never stops the schedule. One statement does it, so several instances never queue the same run twice.
CREATE TABLE job_schedules (
  kind text PRIMARY KEY,
  subject text,
  interval_ms bigint NOT NULL CHECK (interval_ms > 0),
  next_run_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
