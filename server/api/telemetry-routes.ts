import { TelemetryBatch } from '../../contract/telemetry';
import { addTelemetryCounts } from '../db/repositories/telemetry-repository';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { decodeOrThrow, readBody, sendJson } from '../route-kit/http';

// Telemetry batches are small (at most 50 events); anything bigger than this is not the console.
const TELEMETRY_MAX_BYTES = 32 * 1024;

export function registerTelemetryRoutes(router: ApiRouter, ctx: ApiContext): void {
  // Public: the console sends telemetry before and after sign-in. Only counts per event name are kept.
  router.add('POST', 'telemetry', async ({ req, res }) => {
    const batch = decodeOrThrow(TelemetryBatch, await readBody(req, TELEMETRY_MAX_BYTES));
    const counts = new Map<string, number>();
    for (const event of batch.events) counts.set(event.name, (counts.get(event.name) ?? 0) + 1);
    await addTelemetryCounts(ctx.db, counts);
    sendJson(res, 202, { message: 'Accepted', accepted: batch.events.length });
  });
}
