import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { readBody } from '../api/http';
import type { SubscriptionLifecycle } from '../products/subscription-lifecycle';

// Developer controls (only with config.devPages): move the business clock forward, and switch the developer probe
// of the system status page on and off. Browser tests use them to see a trial end or a service go down without
// waiting or killing a part of the platform the rest of the test needs.

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

/** A service of the platform whose health a developer switches (POST /dev/probe {running}). */
export function createDevProbe() {
  let running = true;
  return {
    check: async () => running,
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method === 'POST') {
        const body = await jsonBody(req);
        if (typeof body.running !== 'boolean') return send(res, 400, { message: 'Invalid request', description: 'Send {"running": true|false}.' });
        running = body.running;
      }
      send(res, 200, { running });
    },
  };
}
