import { randomBytes } from 'node:crypto';
import type { LoggenTraces, Span } from '../../../contract/loggen';
import { compileExpression, type LogRecord } from './log-generator';
import type { AddressRules } from '../../net/address-rules';
import { guardedRequest, RequestRefused } from '../../net/guarded-request';

// Sends what Loggen generates to a qryn instance through the same gateway any agent uses: logs as a Loki push
// (JSON), metrics as InfluxDB line protocol, traces as Zipkin JSON v2. The paths are qryn's (and Loki's, InfluxDB's
// and Zipkin's) standard ones, appended to the configured instance URL.

export const LOKI_PUSH_PATH = '/loki/api/v1/push';
export const INFLUX_WRITE_PATH = '/influx/api/v2/write';
export const ZIPKIN_SPANS_PATH = '/tempo/api/push';

export interface ShipTarget {
  url: string;
  headers: Readonly<Record<string, string>>;
  apiKey: string;
  apiSecret: string;
  /** The address rules every connection (and every redirect) is checked against. */
  rules: AddressRules;
  /** The project's own qryn instance: its first hop may be the platform's own address, and its messages are shown. */
  trusted: boolean;
}

/** The gateway said no: a refused key or a rejected body. Not worth retrying. */
export class ShipRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function endpoint(target: ShipTarget, path: string): string {
  return `${target.url.replace(/\/+$/, '')}${path}`;
}

function requestHeaders(target: ShipTarget, contentType: string): Record<string, string> {
  const headers: Record<string, string> = { ...target.headers, 'content-type': contentType };
  if (target.apiKey || target.apiSecret) {
    headers.authorization = `Basic ${Buffer.from(`${target.apiKey}:${target.apiSecret}`).toString('base64')}`;
  }
  return headers;
}

async function send(target: ShipTarget, path: string, contentType: string, body: string, signal?: AbortSignal): Promise<void> {
  let answer;
  try {
    answer = await guardedRequest(
      endpoint(target, path),
      {
        method: 'POST',
        headers: requestHeaders(target, contentType),
        body,
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(15_000)]) : AbortSignal.timeout(15_000),
        timeoutMs: 15_000,
        maxRedirects: 3,
        trusted: target.trusted,
        // Only the platform's own gateway's message is ever shown, and it is short.
        maxBodyChars: target.trusted ? 2_000 : 0,
      },
      target.rules,
    );
  } catch (error) {
    // An address the rules refuse (now, or after a redirect or a DNS change) is not worth retrying.
    if (error instanceof RequestRefused) throw new ShipRefused(0, `the address is not allowed (${error.message})`);
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) return;
  const reason = describeRefusal(answer.status, target.trusted ? answer.body : '');
  if (answer.status >= 300 && answer.status < 500) throw new ShipRefused(answer.status, reason);
  throw new Error(reason);
}

/** The status, and the gateway's own message when the target is the project's qryn instance; never another server's body. */
function describeRefusal(status: number, body: string): string {
  let detail = '';
  try {
    const parsed = JSON.parse(body) as { message?: string; description?: string };
    detail = [parsed.message, parsed.description].filter((part) => typeof part === 'string').join(': ').slice(0, 300);
  } catch {
    // not the gateway's JSON: nothing of it is shown
  }
  if (status === 401 || status === 403) return `the qryn instance refused the API key and secret (${status}${detail ? `: ${detail}` : ''})`;
  if (status >= 300 && status < 400) return `the target answered ${status} (a redirect, not followed further)`;
  return `the qryn instance answered ${status}${detail ? `: ${detail}` : ''}`;
}

export interface LogEntry {
  at: Date;
  line: string;
}

/** Loki push, JSON form: one stream per label set, timestamps in nanoseconds as strings. */
export function lokiPushBody(labels: Readonly<Record<string, string>>, entries: readonly LogEntry[]): string {
  return JSON.stringify({
    streams: [{ stream: labels, values: entries.map((entry) => [`${BigInt(entry.at.getTime()) * 1_000_000n}`, entry.line]) }],
  });
}

export function shipLogs(target: ShipTarget, labels: Readonly<Record<string, string>>, entries: readonly LogEntry[], signal?: AbortSignal) {
  return send(target, LOKI_PUSH_PATH, 'application/json', lokiPushBody(labels, entries), signal);
}

// InfluxDB line protocol escaping: measurement and tag keys/values escape commas, spaces and equals signs.
const escapeTag = (text: string) => text.replace(/\\/g, '\\\\').replace(/([, =])/g, '\\$1');

/**
 * One counter point per label set and level in the batch: loggen_lines_total, so that a metrics query shows the
 * rate Loggen produced next to the logs themselves. qryn names an Influx series `<measurement>_<field>`, so the
 * point is measurement `loggen_lines` with the field `total` (a field `value` arrived as loggen_lines_total_value).
 */
export function metricsBody(labels: Readonly<Record<string, string>>, records: readonly LogRecord[], at: Date): string {
  const counts = new Map<string, number>();
  for (const record of records) {
    const level = typeof record.level === 'string' ? record.level : 'none';
    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  const ns = `${BigInt(at.getTime()) * 1_000_000n}`;
  const tags = Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${escapeTag(key)}=${escapeTag(value)}`)
    .join(',');
  return [...counts]
    .map(([level, count]) => `loggen_lines,${tags ? `${tags},` : ''}level=${escapeTag(level)} total=${count} ${ns}`)
    .join('\n');
}

export function shipMetrics(target: ShipTarget, body: string, signal?: AbortSignal) {
  return send(target, INFLUX_WRITE_PATH, 'text/plain; charset=utf-8', body, signal);
}

interface ZipkinSpan {
  traceId: string;
  id: string;
  parentId?: string;
  name: string;
  kind?: 'CLIENT' | 'SERVER' | 'PRODUCER' | 'CONSUMER';
  timestamp: number;
  duration: number;
  localEndpoint: { serviceName: string };
  tags: Record<string, string>;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export interface TraceBuilder {
  /** The spans of one trace for one log line, and the trace id the line carries. */
  build(record: LogRecord, at: Date): { traceId: string; spans: ZipkinSpan[] };
}

/**
 * Without custom spans: one server span per line, named after the request when the line has method and path,
 * tagged with the line's fields. With custom spans: the configured tree, children starting with their parent,
 * attributes from a generator or from a field of the line.
 */
export function createTraceBuilder(traces: LoggenTraces, serviceName: string): TraceBuilder {
  type Compiled = { span: Span; attributes: { name: string; value: (record: LogRecord, at: Date) => string }[]; children: Compiled[] };
  const compile = (span: Span): Compiled => ({
    span,
    attributes: span.attributes.map((attribute) => {
      if (attribute.resolve_from_log_value) {
        const field = attribute.resolve_from_log_value;
        return { name: attribute.name, value: (record: LogRecord) => String(record[field] ?? '') };
      }
      const generate = compileExpression(attribute.resolve_fake ?? '');
      return { name: attribute.name, value: (_record: LogRecord, at: Date) => String(generate({ at })) };
    }),
    children: span.spans.map(compile),
  });
  const roots = traces.custom ? traces.spans.map(compile) : [];
  const zipkinKind = (kind: Span['kind']) => (kind === 'internal' ? undefined : (kind.toUpperCase() as ZipkinSpan['kind']));

  return {
    build(record, at) {
      const traceId = hex(16);
      const startUs = at.getTime() * 1000;
      if (!traces.custom) {
        const name = record.method && record.path ? `${record.method} ${record.path}` : 'loggen';
        const duration = typeof record.duration_ms === 'number' ? record.duration_ms * 1000 : 1000;
        const tags = Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
        return { traceId, spans: [{ traceId, id: hex(8), name, kind: 'SERVER', timestamp: startUs, duration, localEndpoint: { serviceName }, tags }] };
      }
      const spans: ZipkinSpan[] = [];
      const walk = (node: Compiled, parentId: string | undefined) => {
        const id = hex(8);
        spans.push({
          traceId,
          id,
          ...(parentId ? { parentId } : {}),
          name: node.span.name,
          ...(zipkinKind(node.span.kind) ? { kind: zipkinKind(node.span.kind) } : {}),
          timestamp: startUs,
          duration: node.span.duration * 1000,
          localEndpoint: { serviceName },
          tags: Object.fromEntries(node.attributes.map((attribute) => [attribute.name, attribute.value(record, at)])),
        });
        for (const child of node.children) walk(child, id);
      };
      for (const root of roots) walk(root, undefined);
      return { traceId, spans };
    },
  };
}

export function shipTraces(target: ShipTarget, spans: readonly ZipkinSpan[], signal?: AbortSignal) {
  return send(target, ZIPKIN_SPANS_PATH, 'application/json', JSON.stringify(spans), signal);
}
