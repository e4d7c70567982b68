// A worker thread's first module: the platform runs TypeScript through tsx, and a worker starts without the
// parent's loader, so it registers tsx and then loads the worker's TypeScript entry (named in workerData).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
