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
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const columns = `id, kind, subject, payload, status, progress_current, progress_max, attempts, max_attempts, result, error,
  run_at, locked_by, created_at, updated_at, finished_at`;

export async function insertJob(
  db: Queryable,
  job: { kind: string; subject?: string | null; payload?: unknown; delayMs?: number; maxAttempts?: number },
): Promise<JobRow> {
  const rows = await db.query<JobRow>(
    `INSERT INTO jobs (kind, subject, payload, run_at, max_attempts)
     VALUES ($1, $2, $3::json, now() + make_interval(secs => $4::double precision / 1000), $5)
     RETURNING ${columns}`,
    [job.kind, job.subject ?? null, JSON.stringify(job.payload ?? {}), job.delayMs ?? 0, job.maxAttempts ?? 3],
  );
  return rows[0];
}

/**
 * Claims the next job of the given kinds that is due: a queued one, or a running one whose lease ran out (its
 * worker died). SKIP LOCKED lets several platform instances share the queue without taking the same job.
 */
export async function claimNextJob(db: Queryable, kinds: readonly string[], workerId: string, leaseMs: number): Promise<JobRow | undefined> {
  if (kinds.length === 0) return undefined;
  const rows = await db.query<JobRow>(
    `UPDATE jobs SET status = 'running', locked_by = $2, attempts = attempts + 1, updated_at = now(),
       locked_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = (
       SELECT id FROM jobs
       WHERE kind = ANY($1::text[]) AND run_at <= now()
         AND (status = 'queued' OR (status = 'running' AND locked_until < now()))
       ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${columns}`,
    [kinds, workerId, leaseMs],
  );
  return rows[0];
}

/** Extends the lease and records progress; false when the job is no longer this worker's (cancelled, re-claimed). */
export async function heartbeatJob(
  db: Queryable,
  id: number,
  workerId: string,
  leaseMs: number,
  progress?: { current: number; max: number },
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET locked_until = now() + make_interval(secs => $3::double precision / 1000), updated_at = now(),
       progress_current = COALESCE($4, progress_current), progress_max = COALESCE($5, progress_max)
     WHERE id = $1 AND locked_by = $2 AND status = 'running' RETURNING id`,
    [id, workerId, leaseMs, progress?.current ?? null, progress?.max ?? null],
  );
  return rows.length > 0;
}

export async function finishJob(
  db: Queryable,
  id: number,
  workerId: string,
  outcome: { status: 'done' | 'failed' | 'queued'; result?: unknown; error?: string; retryInMs?: number },
): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = $3, result = COALESCE($4::jsonb, result), error = $5, updated_at = now(),
       locked_by = NULL, locked_until = NULL,
       run_at = CASE WHEN $3 = 'queued' THEN now() + make_interval(secs => $6::double precision / 1000) ELSE run_at END,
       finished_at = CASE WHEN $3 = 'queued' THEN NULL ELSE now() END
     WHERE id = $1 AND locked_by = $2`,
    [id, workerId, outcome.status, outcome.result === undefined ? null : JSON.stringify(outcome.result), outcome.error ?? null, outcome.retryInMs ?? 0],
  );
}

/** Hands this worker's running jobs back to the queue (a clean shutdown), so the next start resumes them at once. */
export async function releaseWorkerJobs(db: Queryable, workerId: string): Promise<void> {
  await db.query(
    `UPDATE jobs SET status = 'queued', locked_by = NULL, locked_until = NULL, updated_at = now()
     WHERE locked_by = $1 AND status = 'running'`,
    [workerId],
  );
}

export async function cancelJob(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE jobs SET status = 'cancelled', locked_by = NULL, locked_until = NULL, updated_at = now(), finished_at = now()
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
