import type { Queryable } from '../db/database';
import { queueDueSchedules, upsertJobSchedule } from '../db/repositories/jobs-repository';
import type { JobHandler, JobQueue } from './job-queue';

// A job that runs again and again (retention, rotation, instrumentation, cleanups). Its schedule is a row of
// `job_schedules`; the worker queues the next run whenever no job of the kind is queued or running, so a failed
// run (or a failed instance inside one) never stops the schedule, and a restart or a second instance never queues a
// second one. The first run comes `firstDelayMs` after the schedule is first made; later ones every `intervalMs`.
// Each run has one attempt: the next one is the retry.

export async function scheduleRecurringJob(
  jobs: JobQueue,
  db: Queryable,
  job: { kind: string; subject: string; intervalMs: number; firstDelayMs: number; run: (ctx: Parameters<JobHandler>[0]) => Promise<unknown> },
): Promise<void> {
  await upsertJobSchedule(db, { kind: job.kind, subject: job.subject, intervalMs: job.intervalMs, firstDelayMs: job.firstDelayMs });
  jobs.register(job.kind, (ctx) => job.run(ctx));
  // The first run is queued now (the worker would on its next pass), so a page or a test finds it at once.
  await queueDueSchedules(db, [job.kind]);
}
