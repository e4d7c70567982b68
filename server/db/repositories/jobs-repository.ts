import type { Queryable } from '../database';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobRow {
  id: number;
  kind: string;
  subject: string | null;
  payload: Record<string, unknown>;
  status: JobStatus;
  progress_current: number;
  progress_max: number;
  attempts: number;
  max_attempts: number;
  result: unknown;
  error: string | null;
  run_at: Date;
  locked_by: string | null;
  /** The current run's fence: set at each claim, cleared when the run ends or is handed back. */
  claim_token: string | null;
  tenant: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const columns = `id, kind, subject, payload, status, progress_current, progress_max, attempts, max_attempts, result, error,
  run_at, locked_by, claim_token, tenant, created_at, updated_at, finished_at`;

export async function insertJob(
  db: Queryable,
  job: { kind: string; subject?: string | null; payload?: unknown; delayMs?: number; maxAttempts?: number; tenant?: string | null },
): Promise<JobRow> {
  const rows = await db.query<JobRow>(
    `INSERT INTO jobs (kind, subject, payload, run_at, max_attempts, tenant)
     VALUES ($1, $2, $3::json, now() + make_interval(secs => $4::double precision / 1000), $5, $6)
     RETURNING ${columns}`,
    [job.kind, job.subject ?? null, JSON.stringify(job.payload ?? {}), job.delayMs ?? 0, job.maxAttempts ?? 3, job.tenant ?? null],
  );
  return rows[0];
}

/**
 * Fails the running jobs whose lease ran out with no attempt left (a stalled run of a maxAttempts: 1 job is never
 * started again). `exceptIds` are this worker's own runs that are still winding down: they are judged once they end.
 */
export async function failExpiredJobs(db: Queryable, kinds: readonly string[], exceptIds: readonly number[]): Promise<JobRow[]> {
  if (kinds.length === 0) return [];
  return db.query<JobRow>(
    `UPDATE jobs SET status = 'failed', error = 'The run stopped renewing its lease and no attempts are left.',
       locked_by = NULL, locked_until = NULL, claim_token = NULL, updated_at = now(), finished_at = now()
     WHERE kind = ANY($1::text[]) AND status = 'running' AND locked_until < now() AND attempts >= max_attempts
       AND NOT (id = ANY($2::int[]))
     RETURNING ${columns}`,
    [kinds, exceptIds],
  );
}

/**
 * Claims the next job of the given kinds that is due: a queued one, or a running one whose lease ran out (its
 * worker died or stalled) and that has attempts left. The claim gets a fresh token that every later write of the
 * run must match. SKIP LOCKED lets several platform instances share the queue without taking the same job.
 * `exceptIds` are runs this worker still has in hand (never claimed twice by the same worker); `perTenant` caps the
 * running jobs of one tenant (a count over every instance: two instances claiming at the same instant may each
 * take one, so the cap can be passed by one for a moment).
 */
export async function claimNextJob(
  db: Queryable,
  kinds: readonly string[],
  workerId: string,
  leaseMs: number,
  claim: { token: string; exceptIds?: readonly number[]; perTenant?: number | null },
): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const rows = await db.query<JobRow>(
    `UPDATE jobs SET status = 'running', locked_by = $2, claim_token = $4, attempts = attempts + 1, updated_at = now(),
       locked_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = (
       SELECT j.id FROM jobs j
       WHERE j.kind = ANY($1::text[]) AND j.run_at <= now() AND NOT (j.id = ANY($5::int[]))
         AND (j.status = 'queued' OR (j.status = 'running' AND j.locked_until < now() AND j.attempts < j.max_attempts))
         AND ($6::int IS NULL OR j.tenant IS NULL OR (
           SELECT count(*) FROM jobs r WHERE r.tenant = j.tenant AND r.status = 'running' AND r.locked_until >= now()) < $6)
       ORDER BY j.run_at, j.id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${columns}`,
    [kinds, workerId, leaseMs, claim.token, claim.exceptIds ?? [], claim.perTenant ?? null],
  );
  return rows[0];
}

/** Extends the lease and records progress; false when the run is no longer the job's current one (cancelled, re-claimed, failed). */
export async function heartbeatJob(
  db: Queryable,
  id: number,
  token: string,
  leaseMs: number,
  progress?: { current: number; max: number },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET locked_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now(),
       progress_current = COALESCE($4, progress_current), progress_max = COALESCE($5, progress_max)
     WHERE id = $1 AND claim_token = $2 AND status = 'running' RETURNING id`,
    [id, token, leaseMs, progress?.current ?? null, progress?.max ?? null],
  );
  return rows.length > 0;
}

/** True while `token` is still the job's current run (inside a transaction, it locks the row until commit). */
export async function holdsClaim(db: Queryable, id: number, token: string): Promise<boolean> {
  const rows = await db.query(`SELECT id FROM jobs WHERE id = $1 AND claim_token = $2 AND status = 'running' FOR UPDATE`, [id, token]);
  return rows.length > 0;
}

/**
 * The run's last write; lands only while the row still carries the run's token. `giveBack` (RetryLater) returns the
 * attempt the claim took, so waiting does not use up attempts. False when the run was fenced off.
 */
export async function finishJob(
  db: Queryable,
  id: number,
  token: string,
  outcome: { status: 'done' | 'failed' | 'queued'; result?: unknown; error?: string; retryInMs?: number; giveBack?: boolean },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = $3, result = COALESCE($4::jsonb, result), error = $5, updated_at = now(),
       locked_by = NULL, locked_until = NULL, claim_token = NULL,
       attempts = CASE WHEN $7 THEN greatest(attempts - 1, 0) ELSE attempts END,
       run_at = CASE WHEN $3 = 'queued' THEN now() + make_interval(secs => $6::double precision / 1000) ELSE run_at END,
       finished_at = CASE WHEN $3 = 'queued' THEN NULL ELSE now() END
     WHERE id = $1 AND claim_token = $2 AND status = 'running' RETURNING id`,
    [id, token, outcome.status, outcome.result === undefined ? null : JSON.stringify(outcome.result), outcome.error ?? null, outcome.retryInMs ?? 0, outcome.giveBack ?? false],
  );
  return rows.length > 0;
}

/** Hands this worker's running jobs back to the queue (a clean shutdown), so the next start resumes them at once. */
export async function releaseWorkerJobs(db: Queryable, workerId: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'queued', locked_by = NULL, locked_until = NULL, claim_token = NULL, updated_at = now()
     WHERE locked_by = $1 AND status = 'running'`,
    [workerId],
  );
}

export async function cancelJob(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'cancelled', locked_by = NULL, locked_until = NULL, claim_token = NULL, updated_at = now(), finished_at = now()
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

export async function findJob(db: Queryable, id: number): Promise<JobRow | undefined> {
  return (await db.query<JobRow>(`SELECT ${columns} FROM jobs WHERE id = $1`, [id]))[0];
}

/** The newest job about a subject (optionally of one kind). */
export async function latestJobFor(db: Queryable, subject: string, kind?: string): Promise<JobRow | undefined> {
  const rows = await db.query<JobRow>(
    `SELECT ${columns} FROM jobs WHERE subject = $1 AND ($2::text IS NULL OR kind = $2) ORDER BY id DESC LIMIT 1`,
    [subject, kind ?? null],
  );
  return rows[0];
}

/** Makes sure a recurring kind has its schedule; an existing one keeps its next run (capped at one interval away). */
export async function upsertJobSchedule(db: Queryable, schedule: { kind: string; subject: string | null; intervalMs: number; firstDelayMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO job_schedules (kind, subject, interval_ms, next_run_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))
     ON CONFLICT (kind) DO UPDATE SET subject = EXCLUDED.subject, interval_ms = EXCLUDED.interval_ms, updated_at = now(),
       next_run_at = least(job_schedules.next_run_at, now() + make_interval(secs => EXCLUDED.interval_ms::double precision / 1000))`,
    [schedule.kind, schedule.subject, schedule.intervalMs, schedule.firstDelayMs],
  );
}

/**
 * Queues the next run of every schedule (of the given kinds) that has no job queued or running: at its planned
 * time, or now when that has passed; the plan then moves one interval on. Whether the last run succeeded plays no
 * part. One statement: when two instances do this at once, the second waits on the schedule's row and then finds
 * a job of the kind queued, so it queues none.
 */
export async function queueDueSchedules(db: Queryable, kinds: readonly string[]): Promise<number> {
  if (kinds.length === 0) return 0;
  const rows = await db.query(
    `WITH planned AS (
       UPDATE job_schedules s
       SET next_run_at = greatest(s.next_run_at, now()) + make_interval(secs => s.interval_ms::double precision / 1000), updated_at = now()
       WHERE s.kind = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = s.kind AND j.status IN ('queued', 'running'))
       RETURNING s.kind, s.subject, s.next_run_at - make_interval(secs => s.interval_ms::double precision / 1000) AS run_at)
     INSERT INTO jobs (kind, subject, run_at, max_attempts) SELECT kind, subject, run_at, 1 FROM planned RETURNING id`,
    [kinds],
  );
  return rows.length;
}

/**
 * Finished jobs are kept for a while (pages show the last run's outcome), then deleted, with the newest one of each
 * kind and subject kept so a page still finds it. Payloads may hold credentials (a Loggen run's write token), so a
 * finished job's payload is emptied after a day.
 */
export async function pruneFinishedJobs(db: Queryable, keepDays: number): Promise<number> {
  await db.query(
    `UPDATE jobs SET payload = '{}'::json WHERE status IN ('done', 'failed', 'cancelled')
       AND finished_at < now() - interval '1 day' AND payload::text <> '{}'`,
  );
  const rows = await db.query(
    `DELETE FROM jobs j WHERE j.status IN ('done', 'failed', 'cancelled')
       AND j.finished_at < now() - make_interval(days => $1::int)
       AND EXISTS (SELECT 1 FROM jobs n WHERE n.kind = j.kind AND n.subject IS NOT DISTINCT FROM j.subject AND n.id > j.id)
     RETURNING id`,
    [keepDays],
  );
  return rows.length;
}
