import { evaluateLogql } from './logql-evaluate';
import type { LogqlAnswer, LogqlJob } from './logql-pool';
import { serveQueries } from './query-worker-loop';

// A LogQL query worker (started by logql-pool.ts through the shared query pool).

serveQueries<LogqlJob, LogqlAnswer>(evaluateLogql);
