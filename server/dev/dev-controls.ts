import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { readBody } from '../route-kit/http';
import type { SubscriptionLifecycle } from '../api/subscription-lifecycle';

// Developer controls (only with config.devPages): move the business clock forward, and stop and continue the qryn
// storage server process. Browser tests use them to see a trial end, or a real back-end process go down on the
// system status page and come back, without waiting or restarting the platform.

const DAY_MS = 86_400_000;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req).catch(() => null);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * GET /dev/clock answers the business time; POST /dev/clock {advance_days} (or {advance_ms}) moves it forward, runs
 * the subscription lifecycle once at the new time, and answers the new time and what moved.
 */
export async function handleDevClock(
  req: IncomingMessage,
  res: ServerResponse,
  clock: Clock,
  lifecycle: SubscriptionLifecycle,
  /** What else depends on business time (invoicing), run after the lifecycle pass. */
  after: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  if (req.method === 'POST') {
    const body = await jsonBody(req);
    const ms = typeof body.advance_ms === 'number' ? body.advance_ms : typeof body.advance_days === 'number' ? body.advance_days * DAY_MS : NaN;
    if (!Number.isFinite(ms) || ms < 0) return send(res, 400, { message: 'Invalid request', description: 'Send {"advance_days": N} with N ≥ 0.' });
    clock.advance(ms);
    const moved = await lifecycle.tick();
    await after();
    return send(res, 200, { now: clock.now().toISOString(), offset_ms: clock.offsetMs(), moved });
  }
  if (req.method !== 'GET') return send(res, 405, { message: 'Method not allowed', description: 'GET or POST.' });
  return send(res, 200, { now: clock.now().toISOString(), offset_ms: clock.offsetMs() });
}

/**
 * POST /dev/storage {running}: stops (SIGSTOP) or continues (SIGCONT) the qryn storage server, the real
 * clickhouse-server process the platform runs under DATA_DIR/storage. A stopped process keeps its sockets open but
 * answers nothing, so every check that talks to it fails for real (system status shows qryn › Storage down) until it
 * continues; its data and ports stay as they were, and the platform needs no restart. GET answers the state.
 */
export function createStorageSwitch(pidOf: () => number | undefined) {
  let stopped: number | undefined;
  const resume = () => {
    if (stopped === undefined) return;
    try {
      process.kill(stopped, 'SIGCONT');
    } catch {
      // gone meanwhile
    }
    stopped = undefined;
  };
  return {
    /** Lets a stopped server continue (before the platform closes, so that it can shut down). */
    resume,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method === 'POST') {
        const body = await jsonBody(req);
        if (typeof body.running !== 'boolean') return send(res, 400, { message: 'Invalid request', description: 'Send {"running": true|false}.' });
        const pid = pidOf();
        if (pid === undefined) return send(res, 409, { message: 'The storage server is not running', description: 'There is no storage server process to stop or continue.' });
        if (body.running) resume();
        else if (stopped === undefined) {
          process.kill(pid, 'SIGSTOP');
          stopped = pid;
        }
      } else if (req.method !== 'GET') return send(res, 405, { message: 'Method not allowed', description: 'GET or POST.' });
      send(res, 200, { running: stopped === undefined, pid: pidOf() ?? null });
    },
  };
}
