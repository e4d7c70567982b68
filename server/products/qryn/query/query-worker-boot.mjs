// A worker thread's first module: the platform runs TypeScript through tsx, and a worker starts without the
// parent's loader, so it registers tsx and then loads the worker's TypeScript entry (named in workerData).
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// A low-priority worker lowers its own thread's scheduling priority (on Linux the nice value belongs to the thread),
// so the rest of the process and the other workers win the CPU from it. Where that is not allowed it runs as is.
if (workerData.nice) {
  try {
    setPriority(0, workerData.nice);
  } catch {
    // Not allowed here: the worker runs at the process's priority.
  }
}

register();
await import(workerData.entry);
