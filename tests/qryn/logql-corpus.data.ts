// The LogQL corpus: generated lines whose fields are known by construction, and queries with their expected answers
// computed from those fields (never by parsing the lines): the reference is written per query in plain code, from
// what the LogQL documentation says the query means.

export type Labels = Record<string, string>;

export interface GenLine {
  stream: Labels;
  ts: bigint;
  line: string;
  /** What the line carries, as the generator wrote it (the raw text of numbers). */
  fields: Record<string, string>;
  kind: 'json' | 'logfmt' | 'access' | 'json-bad' | 'text' | 'ansi';
}

const S = 1_000_000_000n;

/** A small deterministic generator (so a failing case can be reproduced). */
function rng(seed: number) {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

export const STREAMS = {
  apiJson: { app: 'api', env: 'prod', format: 'json' },
  apiLogfmt: { app: 'api', env: 'dev', format: 'logfmt' },
  webAccess: { app: 'web', env: 'prod', format: 'access' },
  webMixed: { app: 'web', env: 'dev', format: 'mixed' },
  worker: { app: 'worker', level: 'info', format: 'json' },
};

const LEVELS = ['info', 'info', 'info', 'warn', 'error', 'debug'];
const PATHS = ['/api/users', '/api/orders', '/health', '/api/items'];
const NAMES = ['alice', 'bob', 'carol', 'dave', 'anna'];
const METHODS = ['GET', 'GET', 'POST', 'PUT', 'DELETE'];

/** The lines, `t0` the first time (ns); every timestamp is distinct and off whole seconds. */
export function generate(t0: bigint): GenLine[] {
  const r = rng(42);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const out: GenLine[] = [];
  let seq = 0;
  const at = (i: number, stream: number) => t0 + BigInt(i) * 9n * S + BigInt(stream) * 1_700_000_000n + 123_456_789n + BigInt(seq++);
  for (let i = 0; i < 150; i++) {
    const level = pick(LEVELS);
    const status = String(level === 'error' ? pick([500, 502, 503]) : pick([200, 200, 201, 404]));
    const latency = String(Math.floor(r() * 2000) / 4);
    const path = pick(PATHS);
    const name = pick(NAMES);
    const msg = r() < 0.2 ? `found the needle ${i}` : r() < 0.1 ? `timeout talking to db ${i}` : `handled request ${i}`;
    const ok = String(status.startsWith('2'));
    const line = `{"level":"${level}","status":${status},"latency":${latency},"path":"${path}","user":{"id":"u${i % 7}","name":"${name}"},"msg":"${msg}","ok":${ok},"tags":["a","b"],"trace":null}`;
    out.push({ stream: STREAMS.apiJson, ts: at(i, 0), line, kind: 'json', fields: { level, status, latency, path, user_id: `u${i % 7}`, user_name: name, msg, ok } });
  }
  for (let i = 0; i < 150; i++) {
    const level = pick(LEVELS);
    const status = String(level === 'error' ? 500 : pick([200, 204, 301, 404]));
    const ms = Math.floor(r() * 3000);
    const duration = ms >= 1000 ? `${ms / 1000}s` : `${ms}ms`;
    const sizeN = Math.floor(r() * 40) * 64;
    const size = sizeN >= 1024 ? `${sizeN / 1024}KiB` : `${sizeN}B`;
    const path = pick(PATHS);
    const msg = r() < 0.2 ? `needle in logfmt ${i}` : `request done ${i}`;
    const flag = r() < 0.3;
    const line = `level=${level} status=${status} duration=${duration} size=${size} path=${path} msg="${msg}"${flag ? ' cached' : ''}`;
    const fields: Record<string, string> = { level, status, duration, size, path, msg, duration_ms: String(ms), size_bytes: String(sizeN) };
    if (flag) fields.cached = '';
    out.push({ stream: STREAMS.apiLogfmt, ts: at(i, 1), line, kind: 'logfmt', fields });
  }
  for (let i = 0; i < 150; i++) {
    const ip = `10.0.${pick([0, 0, 1, 2])}.${1 + Math.floor(r() * 20)}`;
    const user = pick(['-', 'alice', 'bob']);
    const method = pick(METHODS);
    const path = pick(PATHS);
    const status = String(pick([200, 200, 200, 301, 404, 500, 503]));
    const size = String(Math.floor(r() * 5000));
    const line = `${ip} - ${user} [26/Nov/2026:10:00:${String(i % 60).padStart(2, '0')} +0000] "${method} ${path} HTTP/1.1" ${status} ${size}`;
    out.push({ stream: STREAMS.webAccess, ts: at(i, 2), line, kind: 'access', fields: { ip, user, method, path, status, size } });
  }
  for (let i = 0; i < 60; i++) {
    const k = i % 4;
    if (k === 0) {
      const level = pick(['error', 'warn']);
      out.push({ stream: STREAMS.webMixed, ts: at(i * 2, 3), line: `{"level":"${level}","msg":"mixed ${i}"}`, kind: 'json', fields: { level, msg: `mixed ${i}` } });
    } else if (k === 1) {
      const level = pick(['error', 'warn']);
      out.push({ stream: STREAMS.webMixed, ts: at(i * 2, 3), line: `{"level":"${level}","msg": broken ${i}`, kind: 'json-bad', fields: { level } });
    } else if (k === 2) {
      out.push({ stream: STREAMS.webMixed, ts: at(i * 2, 3), line: `plain text line ${i} ERROR maybe`, kind: 'text', fields: {} });
    } else {
      out.push({ stream: STREAMS.webMixed, ts: at(i * 2, 3), line: `\u001b[31mERROR\u001b[0m colored ${i}`, kind: 'ansi', fields: { plain: `ERROR colored ${i}` } });
    }
  }
  for (let i = 0; i < 40; i++) {
    const level = pick(LEVELS);
    const line = `{"level":"${level}","job":"j${i % 3}","took":${i % 9}}`;
    out.push({ stream: STREAMS.worker, ts: at(i * 3, 4), line, kind: 'json', fields: { level_extracted: level, job: `j${i % 3}`, took: String(i % 9) } });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The reference: entries after a pipeline, written per query from the generated fields.

export interface Entry {
  ts: bigint;
  line: string;
  labels: Labels;
}
export interface Sample {
  labels: Labels;
  value: number;
}

const same = (a: Labels, b: Labels) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
const of = (lines: GenLine[], stream: Labels) => lines.filter((g) => same(g.stream, stream));
const entry = (g: GenLine, labels: Labels = g.stream, line = g.line): Entry => ({ ts: g.ts, line, labels });
const omit = (l: Labels, ...names: string[]) => Object.fromEntries(Object.entries(l).filter(([k]) => !names.includes(k)));
const pickLabels = (l: Labels, names: string[]) => Object.fromEntries(Object.entries(l).filter(([k]) => names.includes(k)));

/** `| json` on the generated lines: the fields the generator wrote (arrays and nulls are not labels). */
function json(g: GenLine): Labels {
  if (g.kind === 'json') return { ...g.stream, ...g.fields };
  if (g.kind === 'json-bad') return { ...g.stream, ...g.fields, __error__: 'JSONParserErr' };
  return { ...g.stream, __error__: 'JSONParserErr' };
}
/** `| logfmt`: every key with a value; `cached` (a key without value) only with --keep-empty. */
function logfmt(g: GenLine, keepEmpty = false): Labels {
  const f = g.fields;
  const out: Labels = { ...g.stream, level: f.level, status: f.status, duration: f.duration, size: f.size, path: f.path, msg: f.msg };
  if (keepEmpty && f.cached !== undefined) out.cached = '';
  return out;
}
const access = (g: GenLine, names = ['ip', 'user', 'method', 'path', 'status', 'size']) => ({ ...g.stream, ...pickLabels(g.fields, names) });

const num = (s: string) => Number(s);
const durationSeconds = (g: GenLine) => num(g.fields.duration_ms) / 1000;

export interface LogCase {
  query: string;
  entries: (lines: GenLine[]) => Entry[];
  limit?: number;
  direction?: 'forward' | 'backward';
}
export interface MetricCase {
  query: string;
  /** The instant vector at time t (ns). */
  at: (lines: GenLine[], t: bigint) => Sample[];
  /** The instant answer is ordered by value, not by labels (topk, sort …). */
  ordered?: boolean;
  step?: bigint;
}
export interface ErrorCase {
  query: string;
  error: RegExp;
  status?: number;
}
export type Case = ({ kind: 'log' } & LogCase) | ({ kind: 'metric' } & MetricCase) | ({ kind: 'error' } & ErrorCase);

const log = (query: string, entries: LogCase['entries'], extra: Partial<LogCase> = {}): Case => ({ kind: 'log', query, entries, ...extra });
const metric = (query: string, at: MetricCase['at'], extra: Partial<MetricCase> = {}): Case => ({ kind: 'metric', query, at, ...extra });
const error = (query: string, re: RegExp, status = 400): Case => ({ kind: 'error', query, error: re, status });

const M = 60n * S;

/** Entries in the range window (t - range - offset, t - offset]. */
const within = (es: Entry[], t: bigint, range: bigint, offset = 0n) => es.filter((e) => e.ts > t - offset - range && e.ts <= t - offset);
const key = (l: Labels) => JSON.stringify(Object.entries(l).sort());

/** A range aggregation by brute force: per label set, the function of the window's entries. */
function perSeries(es: Entry[], t: bigint, range: bigint, f: (win: Entry[]) => number, offset = 0n): Sample[] {
  const groups = new Map<string, Entry[]>();
  for (const e of within(es, t, range, offset)) groups.set(key(e.labels), [...(groups.get(key(e.labels)) ?? []), e]);
  return [...groups.values()].map((win) => ({ labels: win[0].labels, value: f(win) }));
}
const count = (win: Entry[]) => win.length;
const bytes = (win: Entry[]) => win.reduce((a, e) => a + Buffer.byteLength(e.line), 0);

/** Values unwrapped from a label: entries whose label is set, grouped by the labels without it. */
function unwrapped(es: Entry[], label: string, value: (e: Entry) => number, group?: { by?: string[]; without?: string[] }) {
  return es
    .filter((e) => e.labels[label] !== undefined && e.labels[label] !== '')
    .map((e) => ({
      ts: e.ts,
      line: e.line,
      labels: group?.by ? pickLabels(e.labels, group.by) : omit(e.labels, label, ...(group?.without ?? [])),
      v: value(e),
    }));
}
function unwrapSeries(us: (Entry & { v: number })[], t: bigint, range: bigint, f: (vs: number[]) => number): Sample[] {
  const groups = new Map<string, (Entry & { v: number })[]>();
  for (const u of us.filter((x) => x.ts > t - range && x.ts <= t)) groups.set(key(u.labels), [...(groups.get(key(u.labels)) ?? []), u]);
  return [...groups.values()].map((win) => ({ labels: win[0].labels, value: f(win.sort((a, b) => (a.ts < b.ts ? -1 : 1)).map((w) => w.v)) }));
}

/** A vector aggregation: `by` keeps the named labels, `without` drops them. */
function agg(samples: Sample[], f: (vs: number[]) => number, by?: string[], without?: string[]): Sample[] {
  const groups = new Map<string, { labels: Labels; vs: number[] }>();
  // Values are combined in the order of their label sets (Prometheus' order), so that sums of fractions are exact.
  for (const s of [...samples].sort((a, b) => compareLabelSets(a.labels, b.labels))) {
    const labels = by ? pickLabels(s.labels, by) : without ? omit(s.labels, ...without) : {};
    for (const k of Object.keys(labels)) if (labels[k] === '') delete labels[k];
    const g = groups.get(key(labels)) ?? { labels, vs: [] };
    g.vs.push(s.value);
    groups.set(key(labels), g);
  }
  return [...groups.values()].map((g) => ({ labels: g.labels, value: f(g.vs) }));
}
const sum = (vs: number[]) => vs.reduce((a, b) => a + b, 0);
const avg = (vs: number[]) => sum(vs) / vs.length;
const min = (vs: number[]) => Math.min(...vs);
const max = (vs: number[]) => Math.max(...vs);
const variance = (vs: number[]) => sum(vs.map((v) => (v - avg(vs)) ** 2)) / vs.length;
function quantile(q: number, vs: number[]) {
  const s = [...vs].sort((a, b) => a - b);
  const rank = q * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo] * (1 - (rank - lo)) + s[hi] * (rank - lo);
}
function compareLabelSets(a: Labels, b: Labels): number {
  const x = Object.entries(a).sort(([p], [q]) => (p < q ? -1 : 1));
  const y = Object.entries(b).sort(([p], [q]) => (p < q ? -1 : 1));
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i][0] !== y[i][0]) return x[i][0] < y[i][0] ? -1 : 1;
    if (x[i][1] !== y[i][1]) return x[i][1] < y[i][1] ? -1 : 1;
  }
  return x.length - y.length;
}
const labelOrder = (a: Labels, b: Labels) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
function topk(k: number, samples: Sample[], desc = true): Sample[] {
  return [...samples].sort((a, b) => (a.value !== b.value ? (desc ? b.value - a.value : a.value - b.value) : labelOrder(a.labels, b.labels))).slice(0, k);
}
/** `a op b` matched on identical label sets (one-to-one), or on `on` labels. */
function match(a: Sample[], b: Sample[], f: (x: number, y: number) => number | undefined, on?: string[]): Sample[] {
  const sig = (l: Labels) => key(on ? pickLabels(l, on) : l);
  const out: Sample[] = [];
  for (const x of a) {
    const y = b.find((s) => sig(s.labels) === sig(x.labels));
    if (!y) continue;
    const v = f(x.value, y.value);
    if (v !== undefined) out.push({ labels: on ? pickLabels(x.labels, on) : x.labels, value: v });
  }
  return out;
}

// Pipelines of the corpus, as entries.
const apiJson = (ls: GenLine[]) => of(ls, STREAMS.apiJson).map((g) => entry(g, json(g)));
const apiLogfmt = (ls: GenLine[]) => of(ls, STREAMS.apiLogfmt).map((g) => entry(g, logfmt(g)));
const web = (ls: GenLine[]) => of(ls, STREAMS.webAccess).map((g) => entry(g, access(g)));
const all = (ls: GenLine[]) => ls.map((g) => entry(g));
const streamsOf = (ls: GenLine[], pred: (l: Labels) => boolean) => ls.filter((g) => pred(g.stream)).map((g) => entry(g));
const lineHas = (ls: GenLine[], pred: (line: string) => boolean, sel: (l: Labels) => boolean = () => true) => ls.filter((g) => sel(g.stream) && pred(g.line)).map((g) => entry(g));
const isApi = (l: Labels) => l.app === 'api';
const ACCESS_PATTERN = '<ip> - <user> [<_>] "<method> <path> <_>" <status> <size>';
const ipIn = (ip: string, lo: number[], hi: number[]) => {
  const n = (p: number[]) => p.reduce((a, x) => a * 256 + x, 0);
  const v = n(ip.split('.').map(Number));
  return v >= n(lo) && v <= n(hi);
};
const ipsIn = (line: string, lo: number[], hi: number[]) => (line.match(/\d+\.\d+\.\d+\.\d+/g) ?? []).some((ip) => ipIn(ip, lo, hi));

export const CASES: Case[] = [
  // Stream selectors.
  log('{app="api"}', (ls) => streamsOf(ls, isApi)),
  log('{app=~"api|web"}', (ls) => streamsOf(ls, (l) => l.app === 'api' || l.app === 'web'), { limit: 1000 }),
  log('{app="web", env!="dev"}', (ls) => streamsOf(ls, (l) => l.app === 'web' && l.env !== 'dev'), { limit: 1000 }),
  log('{format=~"j.*"}', (ls) => streamsOf(ls, (l) => l.format.startsWith('j')), { limit: 50, direction: 'forward' }),
  log('{app!~"web|worker", env="prod"}', (ls) => streamsOf(ls, (l) => l.app === 'api' && l.env === 'prod'), { limit: 30 }),
  log('{app="api", env=~"(?i)PROD"}', (ls) => streamsOf(ls, (l) => l.app === 'api' && l.env === 'prod'), { limit: 1000 }),
  log('{level="info"}', (ls) => streamsOf(ls, (l) => l.level === 'info'), { limit: 1000 }),
  log('{app="worker", level=""}', () => [], { limit: 1000 }),
  log('{env="dev", level!="info"}', (ls) => streamsOf(ls, (l) => l.env === 'dev'), { limit: 1000 }),
  log('{app="api"}', (ls) => streamsOf(ls, isApi), { limit: 7, direction: 'forward' }),
  // Line filters.
  log('{app="api"} |= "needle"', (ls) => lineHas(ls, (l) => l.includes('needle'), isApi), { limit: 1000 }),
  log('{app="api"} != "needle"', (ls) => lineHas(ls, (l) => !l.includes('needle'), isApi), { limit: 1000 }),
  log('{app=~".+"} |~ "(?i)error"', (ls) => lineHas(ls, (l) => /error/i.test(l)), { limit: 1000 }),
  log('{app=~".+"} |~ "ERROR"', (ls) => lineHas(ls, (l) => l.includes('ERROR')), { limit: 1000 }),
  log('{app="api"} |~ "status=5\\\\d\\\\d"', (ls) => lineHas(ls, (l) => /status=5\d\d/.test(l), isApi), { limit: 1000 }),
  log('{app="web"} !~ "GET|POST"', (ls) => lineHas(ls, (l) => !/GET|POST/.test(l), (s) => s.app === 'web'), { limit: 1000 }),
  log('{app="api"} |= "needle" or "timeout"', (ls) => lineHas(ls, (l) => l.includes('needle') || l.includes('timeout'), isApi), { limit: 1000 }),
  log('{app="api"} != "info" or "debug"', (ls) => lineHas(ls, (l) => !l.includes('info') && !l.includes('debug'), isApi), { limit: 1000 }),
  log('{app="web"} |= ip("10.0.0.0/24")', (ls) => lineHas(ls, (l) => ipsIn(l, [10, 0, 0, 0], [10, 0, 0, 255]), (s) => s.app === 'web'), { limit: 1000 }),
  log('{app="web"} != ip("10.0.1.1-10.0.1.9")', (ls) => lineHas(ls, (l) => !ipsIn(l, [10, 0, 1, 1], [10, 0, 1, 9]), (s) => s.app === 'web'), { limit: 1000 }),
  // Loki 3's or between ip() filters: any of them for |=, none of them for !=.
  log('{app="web"} |= ip("10.0.2.0/24") or ip("10.0.1.5")', (ls) => lineHas(ls, (l) => ipsIn(l, [10, 0, 2, 0], [10, 0, 2, 255]) || ipsIn(l, [10, 0, 1, 5], [10, 0, 1, 5]), (s) => s.app === 'web'), { limit: 1000 }),
  log('{app="web"} != ip("10.0.0.0/24") or ip("10.0.1.1-10.0.1.9")', (ls) => lineHas(ls, (l) => !ipsIn(l, [10, 0, 0, 0], [10, 0, 0, 255]) && !ipsIn(l, [10, 0, 1, 1], [10, 0, 1, 9]), (s) => s.app === 'web'), { limit: 1000 }),
  log('{format="access"} |> "<_> \\"GET <_>"', (ls) => lineHas(ls, (l) => l.includes('"GET '), (s) => s.format === 'access'), { limit: 1000 }),
  log('{format="access"} !> "<_> \\"GET <_>"', (ls) => lineHas(ls, (l) => !l.includes('"GET '), (s) => s.format === 'access'), { limit: 1000 }),
  log('{app="api"} |= ""', (ls) => streamsOf(ls, isApi), { limit: 1000 }),
  log('{app="api"} |= `needle` |~ `\\d+$`', (ls) => lineHas(ls, (l) => l.includes('needle') && /\d+$/.test(l), isApi), { limit: 1000 }),
  log('{app="api"} |~ "(?i)NEEDLE" != "logfmt"', (ls) => lineHas(ls, (l) => /needle/i.test(l) && !l.includes('logfmt'), isApi), { limit: 1000 }),
  log('{app="web"} |~ "(?i)error|Timeout"', (ls) => lineHas(ls, (l) => /error/i.test(l) || l.includes('Timeout'), (s) => s.app === 'web'), { limit: 1000 }),
  // json.
  log('{format="json", app="api"} | json', (ls) => apiJson(ls), { limit: 1000 }),
  log('{format="json", app="api"} | json | level="error"', (ls) => apiJson(ls).filter((e) => e.labels.level === 'error'), { limit: 1000 }),
  log('{format="json", app="api"} | json | status >= 500', (ls) => apiJson(ls).filter((e) => num(e.labels.status) >= 500), { limit: 1000 }),
  log('{format="json", app="api"} | json | latency > 250.5', (ls) => apiJson(ls).filter((e) => num(e.labels.latency) > 250.5), { limit: 1000 }),
  log('{format="json", app="api"} | json | status >= 400 and level!="warn"', (ls) => apiJson(ls).filter((e) => num(e.labels.status) >= 400 && e.labels.level !== 'warn'), { limit: 1000 }),
  log('{format="json", app="api"} | json | level="error" or status == 404', (ls) => apiJson(ls).filter((e) => e.labels.level === 'error' || e.labels.status === '404'), { limit: 1000 }),
  log('{format="json", app="api"} | json | status == 200, path="/health"', (ls) => apiJson(ls).filter((e) => e.labels.status === '200' && e.labels.path === '/health'), { limit: 1000 }),
  log('{format="json", app="api"} | json lvl="level", uid="user.id"', (ls) => of(ls, STREAMS.apiJson).map((g) => entry(g, { ...g.stream, lvl: g.fields.level, uid: g.fields.user_id })), { limit: 1000 }),
  log('{format="json", app="api"} | json first_tag="tags[0]", missing', (ls) => of(ls, STREAMS.apiJson).map((g) => entry(g, { ...g.stream, first_tag: 'a', missing: '' })), { limit: 20 }),
  log('{format="json", app="api"} | json | line_format "{{.level}} {{.path}}"', (ls) => apiJson(ls).map((e) => ({ ...e, line: `${e.labels.level} ${e.labels.path}` })), { limit: 1000 }),
  log('{format="json", app="api"} | json | label_format lvl=level | drop status, latency', (ls) => apiJson(ls).map((e) => ({ ...e, labels: { ...omit(e.labels, 'level', 'status', 'latency'), lvl: e.labels.level } })), { limit: 1000 }),
  log('{format="json", app="api"} | json | keep level, path', (ls) => apiJson(ls).map((e) => ({ ...e, labels: pickLabels(e.labels, ['level', 'path']) })), { limit: 1000 }),
  log('{app="worker"} | json', (ls) => of(ls, STREAMS.worker).map((g) => entry(g, json(g))), { limit: 1000 }),
  log('{format="json", app="api"} | json | ok="true"', (ls) => apiJson(ls).filter((e) => e.labels.ok === 'true'), { limit: 1000 }),
  log('{format="json", app="api"} | json | user_name=~"a.*"', (ls) => apiJson(ls).filter((e) => e.labels.user_name.startsWith('a')), { limit: 1000 }),
  log('{format="json", app="api"} |= "needle" | json | drop user_id, user_name, tags', (ls) => apiJson(ls).filter((e) => e.line.includes('needle')).map((e) => ({ ...e, labels: omit(e.labels, 'user_id', 'user_name') })), { limit: 1000 }),
  log('{format="json", app="api"} | json | line_format "{{ .msg | ToUpper }}" |= "NEEDLE"', (ls) => apiJson(ls).map((e) => ({ ...e, line: e.labels.msg.toUpperCase() })).filter((e) => e.line.includes('NEEDLE')), { limit: 1000 }),
  log('{format="json", app="api"} | json | drop level="info"', (ls) => apiJson(ls).map((e) => ({ ...e, labels: e.labels.level === 'info' ? omit(e.labels, 'level') : e.labels })), { limit: 1000 }),
  log('{format="json", app="api"} | json | line_format "{{ if eq .level \\"error\\" }}E{{ else }}{{ .status }}{{ end }}"', (ls) => apiJson(ls).map((e) => ({ ...e, line: e.labels.level === 'error' ? 'E' : e.labels.status })), { limit: 1000 }),
  // logfmt.
  log('{format="logfmt"} | logfmt', (ls) => apiLogfmt(ls), { limit: 1000 }),
  log('{format="logfmt"} | logfmt --keep-empty', (ls) => of(ls, STREAMS.apiLogfmt).map((g) => entry(g, logfmt(g, true))), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | duration > 1s', (ls) => apiLogfmt(ls).filter((e) => num(ls.find((g) => g.ts === e.ts)!.fields.duration_ms) > 1000), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | duration <= 250ms', (ls) => apiLogfmt(ls).filter((e) => num(ls.find((g) => g.ts === e.ts)!.fields.duration_ms) <= 250), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | size >= 1KiB', (ls) => apiLogfmt(ls).filter((e) => num(ls.find((g) => g.ts === e.ts)!.fields.size_bytes) >= 1024), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | size < 1KB', (ls) => apiLogfmt(ls).filter((e) => num(ls.find((g) => g.ts === e.ts)!.fields.size_bytes) < 1000), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | level=~"warn|error"', (ls) => apiLogfmt(ls).filter((e) => ['warn', 'error'].includes(e.labels.level)), { limit: 1000 }),
  log('{format="logfmt"} | logfmt lvl="level", p="path"', (ls) => of(ls, STREAMS.apiLogfmt).map((g) => entry(g, { ...g.stream, lvl: g.fields.level, p: g.fields.path })), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | line_format "{{ .msg | ToUpper }} ({{ .status }})"', (ls) => apiLogfmt(ls).map((e) => ({ ...e, line: `${e.labels.msg.toUpperCase()} (${e.labels.status})` })), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | status != 200 | label_format code=status', (ls) => apiLogfmt(ls).filter((e) => e.labels.status !== '200').map((e) => ({ ...e, labels: { ...omit(e.labels, 'status'), code: e.labels.status } })), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | label_format where="{{ .path }}:{{ .level }}"', (ls) => apiLogfmt(ls).map((e) => ({ ...e, labels: { ...e.labels, where: `${e.labels.path}:${e.labels.level}` } })), { limit: 1000 }),
  log('{format="logfmt"} |= "needle" | logfmt | keep msg', (ls) => apiLogfmt(ls).filter((e) => e.line.includes('needle')).map((e) => ({ ...e, labels: { msg: e.labels.msg } })), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | line_format "{{ .path | replace \\"/api/\\" \\"\\" | trunc 4 }}"', (ls) => apiLogfmt(ls).map((e) => ({ ...e, line: e.labels.path.replace('/api/', '').slice(0, 4) })), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | level="error" | line_format "{{ __line__ | len }}"', (ls) => apiLogfmt(ls).filter((e) => e.labels.level === 'error').map((e) => ({ ...e, line: String(e.line.length) })), { limit: 1000 }),
  // pattern, regexp.
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\``, (ls) => web(ls), { limit: 1000 }),
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\` | status >= 500`, (ls) => web(ls).filter((e) => num(e.labels.status) >= 500), { limit: 1000 }),
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\` | ip = ip("10.0.0.0/24")`, (ls) => web(ls).filter((e) => e.labels.ip.startsWith('10.0.0.')), { limit: 1000 }),
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\` | ip != ip("10.0.0.0/23")`, (ls) => web(ls).filter((e) => !e.labels.ip.startsWith('10.0.0.') && !e.labels.ip.startsWith('10.0.1.')), { limit: 1000 }),
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\` | line_format "{{.method}} {{.path}}"`, (ls) => web(ls).map((e) => ({ ...e, line: `${e.labels.method} ${e.labels.path}` })), { limit: 1000 }),
  log(`{format="access"} | pattern \`${ACCESS_PATTERN}\` | size > 4000 or method="DELETE"`, (ls) => web(ls).filter((e) => num(e.labels.size) > 4000 || e.labels.method === 'DELETE'), { limit: 1000 }),
  log('{format="access"} | pattern "<ip> <_>"', (ls) => of(ls, STREAMS.webAccess).map((g) => entry(g, { ...g.stream, ip: g.fields.ip })), { limit: 1000 }),
  log('{format="access"} | regexp `(?P<ip>\\S+) \\S+ (?P<user>\\S+) \\[[^\\]]*\\] "(?P<method>\\w+) (?P<path>\\S+)`', (ls) => of(ls, STREAMS.webAccess).map((g) => entry(g, access(g, ['ip', 'user', 'method', 'path']))), { limit: 1000 }),
  log('{format="access"} | regexp `" (?P<status>\\d{3}) ` | status="404"', (ls) => web(ls).filter((e) => e.labels.status === '404').map((e) => ({ ...e, labels: { ...STREAMS.webAccess, status: '404' } })), { limit: 1000 }),
  log('{format="access"} | regexp `(?P<method>POST|PUT)`', (ls) => of(ls, STREAMS.webAccess).map((g) => entry(g, ['POST', 'PUT'].includes(g.fields.method) ? { ...g.stream, method: g.fields.method } : g.stream)), { limit: 1000 }),
  // Errors, decolorize, the mixed stream.
  log('{format="mixed"} | json | drop __error_details__', (ls) => of(ls, STREAMS.webMixed).map((g) => entry(g, json(g))), { limit: 1000 }),
  log('{format="mixed"} | json | __error__=""', (ls) => of(ls, STREAMS.webMixed).filter((g) => g.kind === 'json').map((g) => entry(g, json(g))), { limit: 1000 }),
  log('{format="mixed"} | json | __error__!="" | drop __error_details__, level', (ls) => of(ls, STREAMS.webMixed).filter((g) => g.kind !== 'json').map((g) => entry(g, omit(json(g), 'level'))), { limit: 1000 }),
  log('{format="mixed"} | decolorize', (ls) => of(ls, STREAMS.webMixed).map((g) => entry(g, g.stream, g.kind === 'ansi' ? g.fields.plain : g.line)), { limit: 1000 }),
  log('{format="mixed"} |= "ERROR" | decolorize |~ "^ERROR"', (ls) => of(ls, STREAMS.webMixed).filter((g) => g.kind === 'ansi').map((g) => entry(g, g.stream, g.fields.plain)), { limit: 1000 }),
  log('{format="mixed"} | json | drop __error__, __error_details__', (ls) => of(ls, STREAMS.webMixed).map((g) => entry(g, omit(json(g), '__error__'))), { limit: 1000 }),
  log('{format="json", app="api"} | json | status > 300 | drop __error__', (ls) => apiJson(ls).filter((e) => num(e.labels.status) > 300), { limit: 1000 }),
  log('{format="logfmt"} | logfmt | msg > 3 | drop __error_details__', (ls) => apiLogfmt(ls).map((e) => ({ ...e, labels: { ...e.labels, __error__: 'LabelFilterErr' } })), { limit: 1000 }),

  // Metric queries: counting (pushed down when no parser precedes) and rates.
  metric('count_over_time({app="api"}[1m])', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count)),
  metric('count_over_time({app="api"} |= "needle" [5m])', (ls, t) => perSeries(lineHas(ls, (l) => l.includes('needle'), isApi), t, 5n * M, count)),
  metric('count_over_time({app=~".+"} |~ "(?i)error" [2m])', (ls, t) => perSeries(lineHas(ls, (l) => /error/i.test(l)), t, 2n * M, count), { step: 30n * S }),
  metric('rate({app="web"}[5m])', (ls, t) => perSeries(streamsOf(ls, (l) => l.app === 'web'), t, 5n * M, (w) => w.length / 300)),
  metric('rate({app="web"} != "GET" [1m])', (ls, t) => perSeries(lineHas(ls, (l) => !l.includes('GET'), (s) => s.app === 'web'), t, M, (w) => w.length / 60)),
  metric('bytes_over_time({app="api"}[2m])', (ls, t) => perSeries(streamsOf(ls, isApi), t, 2n * M, bytes)),
  metric('bytes_rate({app="api"}[1m])', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, (w) => bytes(w) / 60)),
  metric('count_over_time({app="api"}[1m] offset 2m)', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count, 2n * M)),
  metric('count_over_time({app="api"}[90s])', (ls, t) => perSeries(streamsOf(ls, isApi), t, 90n * S, count), { step: 60n * S }),
  metric('absent_over_time({app="nope"}[1m])', () => [{ labels: { app: 'nope' }, value: 1 }]),
  metric('absent_over_time({app="worker"}[1m])', (ls, t) => (within(streamsOf(ls, (l) => l.app === 'worker'), t, M).length === 0 ? [{ labels: { app: 'worker' }, value: 1 }] : [])),
  metric('count_over_time({app="api", format="json"} | json [1m])', (ls, t) => perSeries(apiJson(ls), t, M, count)),
  metric('count_over_time({format="logfmt"} | logfmt | level="error" [5m])', (ls, t) => perSeries(apiLogfmt(ls).filter((e) => e.labels.level === 'error'), t, 5n * M, count)),
  metric('bytes_over_time({format="json", app="api"} | json | line_format "{{.level}}" [5m])', (ls, t) => perSeries(apiJson(ls).map((e) => ({ ...e, line: e.labels.level })), t, 5n * M, bytes)),
  // Vector aggregations.
  metric('sum by (level) (count_over_time({format="json", app="api"} | json [1m]))', (ls, t) => agg(perSeries(apiJson(ls), t, M, count), sum, ['level'])),
  metric('sum by (level) (count_over_time({app="api"} | drop __error__[1m]))', (ls, t) => agg(perSeries(streamsOf(ls, isApi), t, M, count), sum, ['level'])),
  metric('sum by (level, detected_level) (count_over_time({format="logfmt"} | logfmt | keep level | drop __error__[5m]))', (ls, t) => agg(perSeries(apiLogfmt(ls).map((e) => ({ ...e, labels: { level: e.labels.level } })), t, 5n * M, count), sum, ['level', 'detected_level'])),
  metric('sum(count_over_time({app=~".+"}[1m])) by (app)', (ls, t) => agg(perSeries(all(ls), t, M, count), sum, ['app'])),
  metric('count(count_over_time({app=~".+"}[1m])) by (app)', (ls, t) => agg(perSeries(all(ls), t, M, count), (vs) => vs.length, ['app'])),
  metric('sum without (env, format) (count_over_time({app=~"api|web"}[5m]))', (ls, t) => agg(perSeries(streamsOf(ls, (l) => l.app !== 'worker'), t, 5n * M, count), sum, undefined, ['env', 'format'])),
  metric('avg by (app) (count_over_time({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), avg, ['app'])),
  metric('min by (app) (count_over_time({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), min, ['app'])),
  metric('max by (app) (count_over_time({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), max, ['app'])),
  // Loki applies a sum's grouping when it extracts samples: the rate of all lines together (one division).
  metric('sum(rate({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum).map((s) => ({ ...s, value: s.value / 300 }))),
  metric('stddev by (app) (count_over_time({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), (vs) => Math.sqrt(variance(vs)), ['app'])),
  metric('stdvar(count_over_time({app=~".+"}[5m]))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), variance)),
  metric('topk(2, sum by (path) (count_over_time({format="json", app="api"} | json [5m])))', (ls, t) => topk(2, agg(perSeries(apiJson(ls), t, 5n * M, count), sum, ['path'])), { ordered: true }),
  metric('bottomk(1, sum by (path) (count_over_time({format="json", app="api"} | json [5m])))', (ls, t) => topk(1, agg(perSeries(apiJson(ls), t, 5n * M, count), sum, ['path']), false), { ordered: true }),
  metric('topk(1, count_over_time({app=~".+"}[5m])) by (app)', (ls, t) => {
    const vec = perSeries(all(ls), t, 5n * M, count);
    // Each app's top series, the answer ranked by value.
    return topk(100, [...new Set(vec.map((s) => s.labels.app))].flatMap((app) => topk(1, vec.filter((s) => s.labels.app === app))));
  }, { ordered: true }),
  metric('sort(sum by (app) (count_over_time({app=~".+"}[5m])))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).sort((a, b) => a.value - b.value || labelOrder(a.labels, b.labels)), { ordered: true }),
  metric('sort_desc(sum by (app) (count_over_time({app=~".+"}[5m])))', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).sort((a, b) => b.value - a.value || labelOrder(a.labels, b.labels)), { ordered: true }),
  metric('sum by (status) (count_over_time({format="access"} | pattern `<_> "<method> <_>" <status> <_>` | method="GET" [5m]))', (ls, t) => agg(perSeries(web(ls).filter((e) => e.labels.method === 'GET'), t, 5n * M, count), sum, ['status'])),
  metric('sum by (level) (rate({format="logfmt"} | logfmt [1m]))', (ls, t) => agg(perSeries(apiLogfmt(ls), t, M, (w) => w.length / 60), sum, ['level'])),
  // Unwrapped range aggregations.
  metric('sum by (path) (sum_over_time({format="json", app="api"} | json | unwrap latency [5m]))', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['path'] }), t, 5n * M, sum)),
  metric('avg_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (level)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['level'] }), t, 5n * M, avg)),
  metric('min_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, min)),
  metric('max_over_time({format="json", app="api"} | json | unwrap status [5m]) by (path)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'status', (e) => num(e.labels.status), { by: ['path'] }), t, 5n * M, max)),
  metric('quantile_over_time(0.9, {format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, (vs) => quantile(0.9, vs))),
  metric('stddev_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, (vs) => Math.sqrt(variance(vs)))),
  metric('stdvar_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, variance)),
  metric('first_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, (vs) => vs[0])),
  metric('last_over_time({format="json", app="api"} | json | unwrap latency [5m]) by (app)', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, 5n * M, (vs) => vs[vs.length - 1])),
  metric('sum by (level) (sum_over_time({format="logfmt"} | logfmt | unwrap duration(duration) [5m]))', (ls, t) => unwrapSeries(unwrapped(of(ls, STREAMS.apiLogfmt).map((g) => ({ ...entry(g, logfmt(g)), d: durationSeconds(g) })), 'duration', (e) => (e as Entry & { d: number }).d, { by: ['level'] }), t, 5n * M, sum)),
  metric('max_over_time({format="logfmt"} | logfmt | unwrap bytes(size) [5m]) by (path)', (ls, t) => unwrapSeries(unwrapped(of(ls, STREAMS.apiLogfmt).map((g) => ({ ...entry(g, logfmt(g)), b: num(g.fields.size_bytes) })), 'size', (e) => (e as Entry & { b: number }).b, { by: ['path'] }), t, 5n * M, max)),
  metric('sum without (level, level_extracted, format) (sum_over_time({app="worker"} | json | unwrap took [5m]))', (ls, t) => unwrapSeries(unwrapped(of(ls, STREAMS.worker).map((g) => entry(g, json(g))), 'took', (e) => num(e.labels.took), { without: ['level', 'level_extracted', 'format'] }), t, 5n * M, sum)),
  metric('sum_over_time({app="worker"} | json | unwrap took [5m])', (ls, t) => unwrapSeries(unwrapped(of(ls, STREAMS.worker).map((g) => entry(g, json(g))), 'took', (e) => num(e.labels.took)), t, 5n * M, sum)),
  metric('sum(sum by (level) (sum_over_time({format="json", app="api"} | json | unwrap latency | __error__="" [1m])))', (ls, t) => agg(unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['level'] }), t, M, sum), sum)),
  metric('sum by (app) (rate({format="json", app="api"} | json | unwrap latency [1m]))', (ls, t) => unwrapSeries(unwrapped(apiJson(ls), 'latency', (e) => num(e.labels.latency), { by: ['app'] }), t, M, (vs) => sum(vs) / 60)),
  // Binary operators, vector(), label_replace.
  metric('sum(count_over_time({app="api"} |= "needle" [5m])) / sum(count_over_time({app="api"}[5m]))', (ls, t) => match(agg(perSeries(lineHas(ls, (l) => l.includes('needle'), isApi), t, 5n * M, count), sum), agg(perSeries(streamsOf(ls, isApi), t, 5n * M, count), sum), (a, b) => a / b)),
  metric('count_over_time({app="api"}[1m]) * 2', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: s.value * 2 }))),
  metric('2 * count_over_time({app="api"}[1m]) - 1', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: 2 * s.value - 1 }))),
  metric('sum by (app) (count_over_time({app=~".+"}[5m])) > 30', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).filter((s) => s.value > 30)),
  metric('sum by (app) (count_over_time({app=~".+"}[5m])) > bool 30', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).map((s) => ({ ...s, value: s.value > 30 ? 1 : 0 }))),
  metric('sum by (app) (count_over_time({app=~".+"}[5m])) <= 10', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).filter((s) => s.value <= 10)),
  metric('count_over_time({app="api"}[1m]) % 3', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: s.value % 3 }))),
  metric('count_over_time({app="api"}[1m]) ^ 2', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: s.value ** 2 }))),
  metric('vector(1) + sum(count_over_time({app="api"}[1m]))', (ls, t) => {
    const s = agg(perSeries(streamsOf(ls, isApi), t, M, count), sum);
    return s.map((x) => ({ labels: {}, value: x.value + 1 }));
  }),
  metric('vector(3)', () => [{ labels: {}, value: 3 }]),
  metric('sum(count_over_time({app="nope"}[1m])) or vector(0)', () => [{ labels: {}, value: 0 }]),
  metric('sum by (app) (count_over_time({app=~".+"}[5m])) and sum by (app) (count_over_time({env="prod"}[5m]))', (ls, t) => {
    const prod = agg(perSeries(streamsOf(ls, (l) => l.env === 'prod'), t, 5n * M, count), sum, ['app']);
    return agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).filter((s) => prod.some((p) => p.labels.app === s.labels.app));
  }),
  metric('sum by (app) (count_over_time({app=~".+"}[5m])) unless sum by (app) (count_over_time({env="prod"}[5m]))', (ls, t) => {
    const prod = agg(perSeries(streamsOf(ls, (l) => l.env === 'prod'), t, 5n * M, count), sum, ['app']);
    return agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).filter((s) => !prod.some((p) => p.labels.app === s.labels.app));
  }),
  metric('sum by (app) (count_over_time({env="prod"}[5m])) or sum by (app) (count_over_time({env="dev"}[5m]))', (ls, t) => {
    const prod = agg(perSeries(streamsOf(ls, (l) => l.env === 'prod'), t, 5n * M, count), sum, ['app']);
    const dev = agg(perSeries(streamsOf(ls, (l) => l.env === 'dev'), t, 5n * M, count), sum, ['app']);
    return [...prod, ...dev.filter((d) => !prod.some((p) => p.labels.app === d.labels.app))];
  }),
  metric('count_over_time({app="api"}[5m]) / on(app) group_left sum by (app) (count_over_time({app="api"}[5m]))', (ls, t) => {
    const total = agg(perSeries(streamsOf(ls, isApi), t, 5n * M, count), sum, ['app']);
    return perSeries(streamsOf(ls, isApi), t, 5n * M, count).flatMap((s) => total.filter((x) => x.labels.app === s.labels.app).map((x) => ({ labels: s.labels, value: s.value / x.value })));
  }),
  metric('sum by (app, env) (count_over_time({app="api"}[5m])) / ignoring(env) group_left sum by (app) (count_over_time({app="api"}[5m]))', (ls, t) => {
    const total = agg(perSeries(streamsOf(ls, isApi), t, 5n * M, count), sum, ['app']);
    return agg(perSeries(streamsOf(ls, isApi), t, 5n * M, count), sum, ['app', 'env']).flatMap((s) => total.map((x) => ({ labels: s.labels, value: s.value / x.value })));
  }),
  metric('sum by (app) (count_over_time({env="prod"}[5m])) - on(app) sum by (app, env) (count_over_time({env="dev", app!="worker"}[5m]))', (ls, t) =>
    match(agg(perSeries(streamsOf(ls, (l) => l.env === 'prod'), t, 5n * M, count), sum, ['app']), agg(perSeries(streamsOf(ls, (l) => l.env === 'dev'), t, 5n * M, count), sum, ['app', 'env']), (a, b) => a - b, ['app'])),
  metric('label_replace(sum by (app) (count_over_time({app=~".+"}[5m])), "svc", "$1-svc", "app", "(a.*)")', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).map((s) => (s.labels.app.startsWith('a') ? { ...s, labels: { ...s.labels, svc: `${s.labels.app}-svc` } } : s))),
  metric('label_replace(sum by (app) (count_over_time({app=~".+"}[5m])), "app", "", "app", "web")', (ls, t) => agg(perSeries(all(ls), t, 5n * M, count), sum, ['app']).map((s) => (s.labels.app === 'web' ? { ...s, labels: {} } : s))),
  metric('sum by (level) (count_over_time({format="json", app="api"} | json | level=~"error|warn" [5m])) * on() group_left vector(10)', (ls, t) => agg(perSeries(apiJson(ls).filter((e) => ['error', 'warn'].includes(e.labels.level)), t, 5n * M, count), sum, ['level']).map((s) => ({ ...s, value: s.value * 10 }))),
  metric('count_over_time({app="api"}[1m]) * 2 - 1 > 10', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: s.value * 2 - 1 })).filter((s) => s.value > 10)),
  metric('2 ^ 3 ^ 0 * count_over_time({app="api"}[1m]) / 4 + 1', (ls, t) => perSeries(streamsOf(ls, isApi), t, M, count).map((s) => ({ ...s, value: (2 * s.value) / 4 + 1 }))),
  metric('(sum(count_over_time({app="api"}[5m])) + 1) * 2', (ls, t) => agg(perSeries(streamsOf(ls, isApi), t, 5n * M, count), sum).map((s) => ({ ...s, value: (s.value + 1) * 2 }))),

  // Errors with Loki's messages.
  error('{app="api"', /^parse error at line 1, col 11: syntax error: unexpected \$end/),
  error('{app=~".*"}', /^parse error at line 1, col 1: queries require at least one regexp or equality matcher/),
  error('count_over_time({app="api"})', /^parse error at line 1, col \d+: syntax error/),
  error('sum by (level) (count_over_time({format="mixed"} | json [5m]))', /^pipeline error: 'JSONParserErr' for series/),
  error('{app="api"} | regexp "(no names)"', /^parse error at line 1, col \d+: at least one named capture must be supplied/),
  error('{app="api"} |~ "(unclosed"', /invalid regular expression/),
  error('sum_over_time({app="api"}[5m])', /invalid aggregation sum_over_time without unwrap/),
  error('topk(0, count_over_time({app="api"}[5m]))', /invalid parameter/),
];
