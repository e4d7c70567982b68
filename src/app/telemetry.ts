import { resolveUrl, settings } from '../config/settings';
import { createTelemetryBatcher, type TelemetryBatcher, type TelemetryItem } from '../services/telemetry';

let batcher: TelemetryBatcher | null = null;

function send(items: TelemetryItem[]): Promise<void> {
  // The collector's batch shape (contract/telemetry.ts): { events: [{ name, timestamp, properties }] }.
  const body = JSON.stringify({ events: items.map((item) => ({ name: item.name, timestamp: item.time, properties: item.attributes ?? {} })) });
  return fetch(resolveUrl(settings.telemetryCollectUrl, location.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body, keepalive: true }).then(() => undefined);
}

/** Records page views; batches leave every 250 ms or 50 items. */
export function startTelemetry(): void {
  if (batcher) return;
  batcher = createTelemetryBatcher({ send });
  let lastPath = '';
  const recordPage = () => {
    if (location.pathname === lastPath) return;
    lastPath = location.pathname;
    // Only the route shape, never project names, ids or query values (the properties are not stored anyway).
    batcher?.record({ name: 'page_view', attributes: { route: routeShape(location.pathname) } });
  };
  recordPage();
  const originalPush = history.pushState.bind(history);
  history.pushState = (...args: Parameters<History['pushState']>) => {
    originalPush(...args);
    recordPage();
  };
  addEventListener('popstate', recordPage);
  addEventListener('pagehide', () => batcher?.flush());
}

export function recordTelemetry(name: string, attributes?: Record<string, string | number | boolean>): void {
  batcher?.record({ name, attributes });
}

/** '/acme-production-1/stack/clickhouse/7' → '/:project/stack/clickhouse/:id'. */
export function routeShape(pathname: string): string {
  return pathname
    .split('/')
    .map((segment, index) => (index === 1 && /-\d+$/.test(segment) ? ':project' : /^\d+$/.test(segment) ? ':id' : segment))
    .join('/');
}
