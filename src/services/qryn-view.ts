// The qryn View's side of the instance (spec 001 §7 Other): the `organization_project` cookie that carries the
// credential (`auth`: a token or key:secret) and the instance URL (`url`), set client-side (secure, path /), and
// the reads the View makes against the instance's read side: Loki labels, label values and query_range, Prometheus
// query_range and traces by id. These calls go to the instance URL with the instance's credential, never with the
// console's sign-in (a refused credential is the View's to handle, not a logout).

export const VIEW_COOKIE = 'organization_project';
export const VIEW_AUTH_REFUSED_MESSAGE = 'The instance refused this credential. Paste a valid token or key:secret, or create a read token for the View.';
export const VIEW_UNREACHABLE_MESSAGE = 'The qryn instance could not be reached. Please try again.';

export interface ViewCredential {
  /** A token, or the API key and secret joined by a colon. */
  auth: string;
  /** The instance URL the credential is for. */
  url: string;
}

interface CookieJar {
  cookie: string;
}

/** The View's cookie, if one was set for any instance (JSON of {auth, url}). */
export function readViewCookie(jar: CookieJar = document): ViewCredential | null {
  for (const part of jar.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== VIEW_COOKIE) continue;
    try {
      const value = JSON.parse(decodeURIComponent(rest.join('='))) as Partial<ViewCredential>;
      if (typeof value.auth === 'string' && value.auth && typeof value.url === 'string' && value.url) return { auth: value.auth, url: value.url };
    } catch {
      return null;
    }
  }
  return null;
}

/** The credential the View uses for this instance: the cookie's, when it was set for the same instance URL. */
export function viewCredentialFor(url: string, jar: CookieJar = document): string | null {
  const cookie = readViewCookie(jar);
  return cookie && cookie.url === url ? cookie.auth : null;
}

/** Secure and path / as the spec has it; SameSite=Strict so no other site's request carries it; 30 days. */
export function writeViewCookie(credential: ViewCredential, jar: CookieJar = document): void {
  jar.cookie = `${VIEW_COOKIE}=${encodeURIComponent(JSON.stringify(credential))}; Path=/; Secure; SameSite=Strict; Max-Age=${30 * 86_400}`;
}

export function clearViewCookie(jar: CookieJar = document): void {
  jar.cookie = `${VIEW_COOKIE}=; Path=/; Secure; SameSite=Strict; Max-Age=0`;
}

/** key:secret goes as HTTP basic, anything else as a bearer token (the gateway accepts both: docs/qryn.md). */
export function authorizationHeader(auth: string): string {
  return auth.includes(':') ? `Basic ${btoa(auth)}` : `Bearer ${auth}`;
}

export class ViewRequestError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ViewRequestError';
    this.status = status;
  }
  get refused(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

async function read<T>(credential: ViewCredential, path: string, params: Record<string, string>, signal?: AbortSignal): Promise<T> {
  const url = new URL(`${credential.url.replace(/\/$/, '')}${path}`, globalThis.location?.origin ?? 'http://localhost');
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  // x-qryn-view: the gateway then answers a refusal without WWW-Authenticate, so the browser shows no login prompt.
  const response = await fetch(url, { headers: { authorization: authorizationHeader(credential.auth), 'x-qryn-view': '1' }, signal }).catch(() => null);
  if (!response) throw new ViewRequestError(VIEW_UNREACHABLE_MESSAGE, 0);
  const body = (await response.json().catch(() => null)) as { status?: string; error?: string; data?: unknown } | null;
  if (response.status === 401 || response.status === 403) throw new ViewRequestError(body?.error || VIEW_AUTH_REFUSED_MESSAGE, response.status);
  if (!response.ok || !body) throw new ViewRequestError(body?.error || `The instance answered ${response.status}.`, response.status);
  return (body.data ?? body) as T;
}

export type ViewMode = 'logs' | 'metrics' | 'traces';

export interface TimeRange {
  /** Milliseconds since the epoch. */
  fromMs: number;
  toMs: number;
}

const ns = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;
const seconds = (ms: number) => String(Math.floor(ms / 1000));

/** Label names: Loki's for logs, Prometheus' for metrics. */
export function viewLabels(credential: ViewCredential, mode: Exclude<ViewMode, 'traces'>, range: TimeRange): Promise<string[]> {
  return mode === 'logs'
    ? read<string[]>(credential, '/loki/api/v1/labels', { start: ns(range.fromMs), end: ns(range.toMs) })
    : read<string[]>(credential, '/api/v1/labels', { start: seconds(range.fromMs), end: seconds(range.toMs) });
}

export function viewLabelValues(credential: ViewCredential, mode: Exclude<ViewMode, 'traces'>, name: string, range: TimeRange): Promise<string[]> {
  const encoded = encodeURIComponent(name);
  return mode === 'logs'
    ? read<string[]>(credential, `/loki/api/v1/label/${encoded}/values`, { start: ns(range.fromMs), end: ns(range.toMs) })
    : read<string[]>(credential, `/api/v1/label/${encoded}/values`, { start: seconds(range.fromMs), end: seconds(range.toMs) });
}

/** One table of results: what the View shows and what the exports hold. */
export interface ViewTable {
  columns: string[];
  rows: string[][];
}

export interface ViewQuery {
  mode: ViewMode;
  /** A LogQL stream selector with line filters, a Prometheus series selector, or a trace id. */
  query: string;
  range: TimeRange;
  limit: number;
}

const labelText = (labels: Record<string, string>) =>
  `{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(', ')}}`;
const isoOfNs = (value: string) => new Date(Number(BigInt(value) / 1_000_000n)).toISOString();

/** Runs the query on the instance's read side and returns its results as one table. */
export async function runViewQuery(credential: ViewCredential, q: ViewQuery, signal?: AbortSignal): Promise<ViewTable> {
  if (q.mode === 'logs') {
    const data = await read<{ result: { stream: Record<string, string>; values: [string, string][] }[] }>(
      credential,
      '/loki/api/v1/query_range',
      { query: q.query, start: ns(q.range.fromMs), end: ns(q.range.toMs), limit: String(q.limit), direction: 'backward' },
      signal,
    );
    const rows = data.result.flatMap((s) => s.values.map(([t, line]) => ({ t, row: [isoOfNs(t), labelText(s.stream), line] })));
    rows.sort((a, b) => (BigInt(b.t) > BigInt(a.t) ? 1 : BigInt(b.t) < BigInt(a.t) ? -1 : 0));
    return { columns: ['Time', 'Labels', 'Line'], rows: rows.map((r) => r.row) };
  }
  if (q.mode === 'metrics') {
    // A step that keeps the answer near 250 points per series (the gateway allows 11,000 in all).
    const step = Math.max(1, Math.ceil((q.range.toMs - q.range.fromMs) / 1000 / 250));
    const data = await read<{ result: { metric: Record<string, string>; values: [number, string][] }[] }>(
      credential,
      '/api/v1/query_range',
      { query: q.query, start: seconds(q.range.fromMs), end: seconds(q.range.toMs), step: String(step) },
      signal,
    );
    return {
      columns: ['Series', 'Time', 'Value'],
      rows: data.result.flatMap((s) => s.values.map(([t, v]) => [labelText(s.metric), new Date(t * 1000).toISOString(), v])),
    };
  }
  const id = q.query.trim().toLowerCase();
  const data = await read<{ batches: { resource?: { attributes?: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { spanId: string; parentSpanId?: string; name: string; startTimeUnixNano: string; endTimeUnixNano: string }[] }[] }[] }>(
    credential,
    `/api/traces/${encodeURIComponent(id)}`,
    {},
    signal,
  );
  const rows = data.batches.flatMap((b) => {
    const service = b.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
    return b.scopeSpans.flatMap((s) =>
      s.spans.map((span) => [service, span.name, span.spanId, span.parentSpanId ?? '', isoOfNs(span.startTimeUnixNano), String(Number(BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano)) / 1e6)]),
    );
  });
  rows.sort((a, b) => a[4].localeCompare(b[4]));
  return { columns: ['Service', 'Span', 'Span id', 'Parent span id', 'Start', 'Duration (ms)'], rows };
}

const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The table as CSV (RFC 4180 quoting), with a header row. */
export function tableCsv(table: ViewTable): string {
  return [table.columns, ...table.rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}

/** The table as JSON: one object per row, keyed by the column names. */
export function tableJson(table: ViewTable): string {
  return JSON.stringify(
    table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]]))),
    null,
    2,
  );
}
