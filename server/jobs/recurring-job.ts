import type { Queryable } from '../db/database';
import type { JobQueue } from './job-queue';

// A job that runs again and again (retention, rotation): each run enqueues the next one after `intervalMs`; at
// platform start the first run is scheduled after `firstDelayMs` unless one is already queued or running (another
// instance, or the run before a restart).

export async function scheduleRecurringJob(
  jobs: JobQueue,
  db: Queryable,
  job: { kind: string; subject: string; intervalMs: number; firstDelayMs: number; run: () => Promise<unknown> },
): Promise<void> {
  jobs.register(job.kind, async () => {
    const result = await job.run();
    await jobs.enqueue(db, job.kind, { subject: job.subject, delayMs: job.intervalMs });
    return result;
  });
  const latest = await jobs.latest(job.subject, job.kind);
  if (!latest || (latest.status !== 'queued' && latest.status !== 'running')) {
    await jobs.enqueue(db, job.kind, { subject: job.subject, delayMs: job.firstDelayMs });
  }
}
