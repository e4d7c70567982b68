import { evaluatePromql } from './promql-evaluate';
import type { PromqlAnswer, PromqlWorkerJob } from './promql-pool';
import { serveQueries } from './query-worker-loop';

// A PromQL query worker (started by promql-pool.ts through the shared query pool).

serveQueries<PromqlWorkerJob, PromqlAnswer>((message, signal) => evaluatePromql(message.job, message.settings, signal));
