import type { Queryable } from '../database';

/** How failures turn into waits for one kind of subject (an account or a client address). */
export interface FailurePolicy {
  /** Failures that cost nothing. */
  freeFailures: number;
  /** Each failure after the free ones makes the next attempt wait this many seconds more. */
  waitIncrementSeconds: number;
  /** The growing wait never exceeds this. */
  maxWaitSeconds: number;
  /** From this many failures on, every failure locks for lockoutSeconds. */
  lockoutFailures: number;
  lockoutSeconds: number;
  /** Failures older than this (since the last one) are forgotten. */
  resetSeconds: number;
}

export type AttemptOutcome = { allowed: true } | { allowed: false; waitSeconds: number };

/**
 * Counts an attempt BEFORE the password is checked (so a burst of parallel guesses is counted, not raced), unless
 * the subject must still wait, in which case nothing changes and the remaining wait is returned. One statement, so
 * two instances counting the same subject agree.
 */
export async function countAttempt(db: Queryable, subject: string, policy: FailurePolicy): Promise<AttemptOutcome> {
  const waiting = await db.query<{ wait: number }>(
    `SELECT CEIL(EXTRACT(EPOCH FROM (wait_until - now())))::int AS wait FROM sign_in_failures
      WHERE subject = $1 AND wait_until > now()`,
    [subject],
  );
  if (waiting.length > 0) return { allowed: false, waitSeconds: Math.max(1, waiting[0].wait) };
  await db.query(
    `INSERT INTO sign_in_failures AS f (subject, failures, last_failure_at, wait_until)
     VALUES ($1, 1, now(), ${waitAfter('1')})
     ON CONFLICT (subject) DO UPDATE SET
       failures = CASE WHEN f.last_failure_at < now() - make_interval(secs => $7) THEN 1 ELSE f.failures + 1 END,
       last_failure_at = now(),
       wait_until = ${waitAfter('(CASE WHEN f.last_failure_at < now() - make_interval(secs => $7) THEN 1 ELSE f.failures + 1 END)')}`,
    policyParams(subject, policy),
  );
  return { allowed: true };
}

// The wait that follows the n-th failure: none while free, then growing by the increment up to the cap, then the
// lockout. $2..$6 are the policy's numbers (see policyParams).
function waitAfter(n: string): string {
  return `CASE
    WHEN ${n} >= $5 THEN now() + make_interval(secs => $6)
    WHEN ${n} > $2 THEN now() + make_interval(secs => LEAST($3 * (${n} - $2), $4))
    ELSE NULL END`;
}

function policyParams(subject: string, policy: FailurePolicy) {
  return [subject, policy.freeFailures, policy.waitIncrementSeconds, policy.maxWaitSeconds, policy.lockoutFailures, policy.lockoutSeconds, policy.resetSeconds];
}

/** The wait the subject's last counted failure set (0 when none), for the message after a wrong password. */
export async function currentWait(db: Queryable, subject: string): Promise<number> {
  const rows = await db.query<{ wait: number }>(
    `SELECT CEIL(EXTRACT(EPOCH FROM (wait_until - now())))::int AS wait FROM sign_in_failures
      WHERE subject = $1 AND wait_until > now()`,
    [subject],
  );
  return rows.length > 0 ? Math.max(1, rows[0].wait) : 0;
}

/** A successful sign-in clears the account's failures. */
export async function clearFailures(db: Queryable, subject: string): Promise<void> {
  await db.query('DELETE FROM sign_in_failures WHERE subject = $1', [subject]);
}

/**
 * A successful sign-in's attempt is taken back from its address (counted up front, it was not a failure); the wait
 * it may have started is lifted when the count falls back to the free ones.
 */
export async function takeBackAttempt(db: Queryable, subject: string, policy: FailurePolicy): Promise<void> {
  await db.query(
    `UPDATE sign_in_failures SET failures = GREATEST(failures - 1, 0),
       wait_until = CASE WHEN failures - 1 <= $2 THEN NULL ELSE wait_until END
     WHERE subject = $1`,
    [subject, policy.freeFailures],
  );
}

export async function sweepOldFailures(db: Queryable, resetSeconds: number): Promise<void> {
  await db.query(
    'DELETE FROM sign_in_failures WHERE last_failure_at < now() - make_interval(secs => $1) AND (wait_until IS NULL OR wait_until < now())',
    [resetSeconds],
  );
}
