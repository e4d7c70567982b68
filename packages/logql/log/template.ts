import { compileRe2 } from '../../re2-pattern/re2-pattern';
import { parseGoDurationNs } from '../syntax/duration';
import { parseBytes } from '../syntax/units';
import { goReplaceAll } from './go-regexp';
import { decimalFold } from './go-decimal';
import { formatGoTime, GoTime, parseGoTime } from './go-time';
import { ownLabel } from '../../labels/own-label';

// The Go text/template subset that Loki's line_format and label_format take: `{{ .label }}`, pipelines with `|`,
// function calls, parentheses, `if`/`else if`/`else`/`end`, `{{-`/`-}}` trimming, comments, and the template
// functions Loki's documentation lists (Loki's own and the sprig ones it registers). A missing label reads as "".

export class TemplateError extends Error {}

type Value = string | number | boolean | GoTime | GoFloat | null | undefined | Record<string, unknown> | unknown[];

/** A float64 result (sprig's float functions, bytes): printed as Go prints a float64 (`3e+06`, `1e-05`). */
class GoFloat {
  constructor(readonly v: number) {}
}
const goFloat = (v: number) => new GoFloat(v);

type Node =
  | { t: 'text'; s: string }
  | { t: 'action'; p: Pipeline }
  | { t: 'if'; branches: { cond: Pipeline; body: Node[] }[]; otherwise: Node[] };
type Arg = { k: 'field'; name: string } | { k: 'dot' } | { k: 'lit'; v: Value } | { k: 'fn'; name: string } | { k: 'sub'; p: Pipeline };
type Command = Arg[];
type Pipeline = Command[];

export interface TemplateContext {
  labels: Record<string, string>;
  line: string;
  tsNs: bigint;
}

export type Template = (ctx: TemplateContext) => string;

export function compileTemplate(src: string): Template {
  const tokens = lex(src);
  let pos = 0;
  const parseList = (stop: Set<string>): { nodes: Node[]; end?: string } => {
    const nodes: Node[] = [];
    while (pos < tokens.length) {
      const tok = tokens[pos];
      if (tok.t === 'text') {
        nodes.push({ t: 'text', s: tok.s });
        pos++;
        continue;
      }
      const body = tok.s.trim();
      const word = /^(\w+)/.exec(body)?.[1];
      if (word && stop.has(word) && (word === 'end' || word === 'else')) return { nodes, end: body };
      pos++;
      if (body.startsWith('/*')) continue;
      if (word === 'if') {
        const branches: { cond: Pipeline; body: Node[] }[] = [];
        let cond = parsePipeline(body.slice(2));
        let otherwise: Node[] = [];
        for (;;) {
          const inner = parseList(new Set(['end', 'else']));
          branches.push({ cond, body: inner.nodes });
          if (!inner.end) throw new TemplateError('template: unexpected EOF in if');
          pos++;
          if (inner.end === 'end') break;
          const rest = inner.end.slice(4).trim();
          if (rest.startsWith('if ')) {
            cond = parsePipeline(rest.slice(3));
            continue;
          }
          const tail = parseList(new Set(['end']));
          if (tail.end !== 'end') throw new TemplateError('template: unexpected EOF in else');
          pos++;
          otherwise = tail.nodes;
          break;
        }
        nodes.push({ t: 'if', branches, otherwise });
        continue;
      }
      if (word === 'end' || word === 'else') throw new TemplateError(`template: unexpected {{${word}}}`);
      if (word === 'range' || word === 'with' || word === 'define' || word === 'template' || word === 'block') {
        throw new TemplateError(`template: ${word} is not supported`);
      }
      nodes.push({ t: 'action', p: parsePipeline(body) });
    }
    return { nodes };
  };
  const { nodes } = parseList(new Set());
  return (ctx) => {
    let out = '';
    const run = (list: Node[]) => {
      for (const n of list) {
        if (n.t === 'text') out += n.s;
        else if (n.t === 'action') out += print(evalPipeline(n.p, ctx));
        else {
          const hit = n.branches.find((b) => truthy(evalPipeline(b.cond, ctx)));
          run(hit ? hit.body : n.otherwise);
        }
      }
    };
    run(nodes);
    return out;
  };
}

function lex(src: string): { t: 'text' | 'action'; s: string }[] {
  const out: { t: 'text' | 'action'; s: string }[] = [];
  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      if (text) out.push({ t: 'text', s: text });
      break;
    }
    let j = open + 2;
    if (src[j] === '-' && /\s/.test(src[j + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      j++;
    }
    if (text) out.push({ t: 'text', s: text });
    // Find the closing braces outside string literals.
    let k = j;
    let quote = '';
    for (; k < src.length; k++) {
      const c = src[k];
      if (quote) {
        if (c === '\\' && quote === '"') k++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === '`') quote = c;
      else if (src.startsWith('}}', k)) break;
    }
    if (k >= src.length) throw new TemplateError('template: unclosed action');
    let body = src.slice(j, k);
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      trimNext = true;
    }
    out.push({ t: 'action', s: body });
    i = k + 2;
  }
  return out;
}

function parsePipeline(src: string): Pipeline {
  const toks: string[] = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|`[^`]*`|\(|\)|\||[^\s()|]+)/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src)) !== null) {
    toks.push(m[1]);
    if (re.lastIndex >= src.length) break;
  }
  if (src.trim() !== '' && toks.length === 0) throw new TemplateError(`template: bad action ${src}`);
  let p = 0;
  const pipeline = (): Pipeline => {
    const cmds: Pipeline = [];
    let cmd: Command = [];
    while (p < toks.length) {
      const t = toks[p];
      if (t === ')') break;
      p++;
      if (t === '|') {
        if (cmd.length === 0) throw new TemplateError('template: missing command');
        cmds.push(cmd);
        cmd = [];
      } else if (t === '(') {
        const inner = pipeline();
        if (toks[p] !== ')') throw new TemplateError('template: unclosed left paren');
        p++;
        cmd.push({ k: 'sub', p: inner });
      } else cmd.push(arg(t));
    }
    if (cmd.length === 0) throw new TemplateError('template: missing value for command');
    cmds.push(cmd);
    return cmds;
  };
  const result = pipeline();
  if (p < toks.length) throw new TemplateError(`template: unexpected ${toks[p]}`);
  return result;
}

function arg(t: string): Arg {
  if (t === '.') return { k: 'dot' };
  if (t.startsWith('.')) return { k: 'field', name: t.slice(1) };
  if (t.startsWith('"')) {
    try {
      return { k: 'lit', v: JSON.parse(t) as string };
    } catch {
      throw new TemplateError(`template: bad string ${t}`);
    }
  }
  if (t.startsWith('`')) return { k: 'lit', v: t.slice(1, -1) };
  if (t === 'true' || t === 'false') return { k: 'lit', v: t === 'true' };
  if (t === 'nil') return { k: 'lit', v: null };
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return { k: 'lit', v: Number(t) };
  if (/^[A-Za-z_]\w*$/.test(t)) {
    if (!Object.hasOwn(FUNCS, t)) throw new TemplateError(`template: function "${t}" not defined`);
    return { k: 'fn', name: t };
  }
  throw new TemplateError(`template: unexpected "${t}"`);
}

function evalArg(a: Arg, ctx: TemplateContext): Value {
  switch (a.k) {
    case 'dot':
      return ctx.labels;
    case 'field':
      return ownLabel(ctx.labels, a.name) ?? '';
    case 'lit':
      return a.v;
    case 'sub':
      return evalPipeline(a.p, ctx);
    case 'fn':
      return call(a.name, [], ctx);
  }
}

function evalPipeline(p: Pipeline, ctx: TemplateContext): Value {
  let last: Value | typeof NONE = NONE;
  for (const cmd of p) {
    const head = cmd[0];
    if (head.k === 'fn') {
      const args = cmd.slice(1).map((a) => evalArg(a, ctx));
      if (last !== NONE) args.push(last);
      last = call(head.name, args, ctx);
    } else {
      if (cmd.length > 1 || last !== NONE) throw new TemplateError("template: can't give argument to non-function");
      last = evalArg(head, ctx);
    }
  }
  return last === NONE ? '' : last;
}

const NONE = Symbol('none');

function call(name: string, args: Value[], ctx: TemplateContext): Value {
  const f = FUNCS[name];
  if (f.arity !== undefined && args.length !== f.arity) {
    throw new TemplateError(`template: wrong number of args for ${name}: want ${f.arity} got ${args.length}`);
  }
  return f.fn(args, ctx);
}

function truthy(v: Value): boolean {
  if (v instanceof GoFloat) return v.v !== 0;
  if (v === null || v === undefined || v === false || v === '' || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

function print(v: Value): string {
  if (v === null || v === undefined) return '<no value>';
  if (typeof v === 'number') return formatNumber(v);
  if (v instanceof GoFloat) return formatGoFloat(v.v);
  if (typeof v === 'object' && !(v instanceof GoTime)) {
    if (Array.isArray(v)) return `[${v.map((x) => print(x as Value)).join(' ')}]`;
    return `map[${Object.keys(v).sort().map((k) => `${k}:${print(v[k] as Value)}`).join(' ')}]`;
  }
  return String(v);
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  const s = String(n);
  // Go's %v uses exponents from 1e21 like JavaScript, but writes them e+21.
  return s.replace(/e\+?(-?)(\d)$/, (_, sign: string, d: string) => `e${sign || '+'}0${d}`).replace(/e\+?(-?)(\d\d+)$/, (_, sign: string, d: string) => `e${sign || '+'}${d}`);
}

/** strconv.FormatFloat(v, 'g', -1, 64): the shortest digits, in exponent form below 1e-4 and from 1e6. */
function formatGoFloat(n: number): string {
  if (!Number.isFinite(n) || n === 0) return formatNumber(n);
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

const str = (v: Value): string => (typeof v === 'string' ? v : print(v));
function toNum(v: Value): number {
  if (v instanceof GoFloat) return v.v;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(str(v).trim());
  return Number.isNaN(n) ? 0 : n;
}
const toInt = (v: Value) => Math.trunc(toNum(v));
const goTrim = (s: string, cutset: string, left: boolean, right: boolean) => {
  let a = 0;
  let b = s.length;
  if (left) while (a < b && cutset.includes(s[a])) a++;
  if (right) while (b > a && cutset.includes(s[b - 1])) b--;
  return s.slice(a, b);
};
function compare(a: Value, b: Value): number {
  const num = (v: Value) => (v instanceof GoFloat ? v.v : v);
  if (typeof num(a) === 'number' && typeof num(b) === 'number') return (num(a) as number) - (num(b) as number);
  const x = str(a);
  const y = str(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
function goQueryEscape(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
function printf(format: string, args: Value[]): string {
  let i = 0;
  return format.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([vsdfqxXtge%])/g, (all, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    const v = args[i++];
    let out: string;
    switch (verb) {
      case 'd':
        out = String(toInt(v));
        break;
      case 'f':
        out = toNum(v).toFixed(prec ? Number(prec) : 6);
        break;
      case 'g':
      case 'e':
        out = verb === 'e' ? toNum(v).toExponential(prec ? Number(prec) : 6) : formatNumber(toNum(v));
        break;
      case 'q':
        out = JSON.stringify(str(v));
        break;
      case 'x':
      case 'X':
        out = typeof v === 'number' ? Math.trunc(v).toString(16) : Buffer.from(str(v)).toString('hex');
        if (verb === 'X') out = out.toUpperCase();
        break;
      default:
        out = prec !== undefined && verb === 's' ? str(v).slice(0, Number(prec)) : str(v);
    }
    if (width && out.length < Number(width)) out = flags.includes('-') ? out.padEnd(Number(width)) : out.padStart(Number(width), flags.includes('0') && verb !== 's' ? '0' : ' ');
    return all.length > 0 ? out : '';
  });
}

function toTime(v: Value): GoTime {
  if (v instanceof GoTime) return v;
  if (typeof v === 'number') return new GoTime(BigInt(Math.trunc(v)) * 1_000_000_000n);
  const ms = Date.parse(str(v));
  return new GoTime(Number.isNaN(ms) ? 0n : BigInt(ms) * 1_000_000n);
}

function goDurationString(seconds: number): string {
  if (seconds === 0) return '0s';
  const neg = seconds < 0;
  let ns = Math.round(Math.abs(seconds) * 1e9);
  let out = '';
  if (ns < 1e9) {
    out = ns < 1e3 ? `${ns}ns` : ns < 1e6 ? `${ns / 1e3}µs` : `${ns / 1e6}ms`;
  } else {
    const h = Math.floor(ns / 3600e9);
    ns -= h * 3600e9;
    const m = Math.floor(ns / 60e9);
    ns -= m * 60e9;
    const s = ns / 1e9;
    out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${formatNumber(Number(s.toFixed(9)))}s`;
  }
  return neg ? `-${out}` : out;
}

type Fn = { arity?: number; fn: (args: Value[], ctx: TemplateContext) => Value };
const f1 = (fn: (a: string) => Value): Fn => ({ arity: 1, fn: ([a]) => fn(str(a)) });
const f2 = (fn: (a: Value, b: Value) => Value): Fn => ({ arity: 2, fn: ([a, b]) => fn(a, b) });
const f3 = (fn: (a: Value, b: Value, c: Value) => Value): Fn => ({ arity: 3, fn: ([a, b, c]) => fn(a, b, c) });
const int2 = (fn: (a: number, b: number) => number): Fn => f2((a, b) => Math.trunc(fn(toInt(a), toInt(b))));
const variadic = (fn: (args: number[]) => Value, ints: boolean): Fn => ({
  fn: (args) => {
    const ns = args.map(ints ? toInt : toNum);
    return fn(ns);
  },
});

const regexCache = new Map<string, ReturnType<typeof compileRe2>>();
function re2(pattern: string) {
  let re = regexCache.get(pattern);
  if (!re) {
    try {
      re = compileRe2(pattern);
    } catch (e) {
      throw new TemplateError(e instanceof Error ? e.message : String(e));
    }
    regexCache.set(pattern, re);
  }
  return re;
}

const FUNCS: Record<string, Fn> = {
  // Loki's own functions.
  __line__: { arity: 0, fn: (_, ctx) => ctx.line },
  __timestamp__: { arity: 0, fn: (_, ctx) => new GoTime(ctx.tsNs) },
  ToLower: f1((s) => s.toLowerCase()),
  ToUpper: f1((s) => s.toUpperCase()),
  Replace: { arity: 4, fn: ([s, o, n, c]) => replaceN(str(s), str(o), str(n), toInt(c)) },
  Trim: f2((s, c) => goTrim(str(s), str(c), true, true)),
  TrimLeft: f2((s, c) => goTrim(str(s), str(c), true, false)),
  TrimRight: f2((s, c) => goTrim(str(s), str(c), false, true)),
  TrimPrefix: f2((s, p) => (str(s).startsWith(str(p)) ? str(s).slice(str(p).length) : str(s))),
  TrimSuffix: f2((s, p) => (str(p) !== '' && str(s).endsWith(str(p)) ? str(s).slice(0, -str(p).length) : str(s))),
  TrimSpace: f1((s) => s.trim()),
  regexReplaceAll: f3((r, s, repl) => goReplaceAll(re2(str(r)), str(s), str(repl), false)),
  regexReplaceAllLiteral: f3((r, s, repl) => goReplaceAll(re2(str(r)), str(s), str(repl), true)),
  count: f2((r, s) => {
    const m = re2(str(r)).matcher(str(s));
    let n = 0;
    while (m.find()) n++;
    return n;
  }),
  urldecode: f1((s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new TemplateError(`invalid URL escape "${s}"`);
    }
  }),
  urlencode: f1(goQueryEscape),
  bytes: f1((s) => {
    const b = parseBytes(s);
    if (b === undefined) throw new TemplateError(`invalid bytes "${s}"`);
    return goFloat(b);
  }),
  duration: f1((s) => goFloat(durationSeconds(s))),
  duration_seconds: f1((s) => goFloat(durationSeconds(s))),
  // Loki prints these with strconv.FormatInt: nanoseconds exceed a float's integers.
  unixEpochMillis: { arity: 1, fn: ([t]) => String(toTime(t).ns / 1_000_000n) },
  unixEpochNanos: { arity: 1, fn: ([t]) => String(toTime(t).ns) },
  toDateInZone: f3((layout, zone, value) => parseGoTime(str(layout), str(value), str(zone))),
  unixToTime: f1((s) => {
    if (!/^\d+$/.test(s)) throw new TemplateError(`unable to parse time '${s}'`);
    const n = BigInt(s);
    if (s.length <= 10) return new GoTime(n * 1_000_000_000n);
    if (s.length <= 13) return new GoTime(n * 1_000_000n);
    if (s.length <= 16) return new GoTime(n * 1000n);
    return new GoTime(n);
  }),
  alignLeft: f2((n, s) => {
    const w = toInt(n);
    const chars = [...str(s)];
    return chars.length >= w ? chars.slice(0, w).join('') : str(s) + ' '.repeat(w - chars.length);
  }),
  alignRight: f2((n, s) => {
    const w = toInt(n);
    const chars = [...str(s)];
    return chars.length >= w ? chars.slice(chars.length - w).join('') : ' '.repeat(w - chars.length) + str(s);
  }),
  // The sprig functions Loki registers.
  b64enc: f1((s) => Buffer.from(s).toString('base64')),
  b64dec: f1((s) => Buffer.from(s, 'base64').toString('utf8')),
  lower: f1((s) => s.toLowerCase()),
  upper: f1((s) => s.toUpperCase()),
  title: f1((s) => s.replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())),
  trunc: f2((n, s) => {
    const c = toInt(n);
    const t = str(s);
    if (c < 0) return -c < t.length ? t.slice(t.length + c) : t;
    return c < t.length ? t.slice(0, c) : t;
  }),
  substr: f3((a, b, s) => {
    const t = str(s);
    const start = toInt(a);
    const end = toInt(b);
    if (start < 0) return t.slice(0, end);
    if (end < 0 || end > t.length) return t.slice(start);
    return t.slice(start, end);
  }),
  contains: f2((sub, s) => str(s).includes(str(sub))),
  hasPrefix: f2((p, s) => str(s).startsWith(str(p))),
  hasSuffix: f2((p, s) => str(s).endsWith(str(p))),
  indent: f2((n, s) => str(s).split('\n').map((l) => ' '.repeat(toInt(n)) + l).join('\n')),
  nindent: f2((n, s) => `\n${str(s).split('\n').map((l) => ' '.repeat(toInt(n)) + l).join('\n')}`),
  replace: f3((o, n, s) => str(s).split(str(o)).join(str(n))),
  repeat: f2((n, s) => str(s).repeat(Math.max(0, toInt(n)))),
  trim: f1((s) => s.trim()),
  trimAll: f2((c, s) => goTrim(str(s), str(c), true, true)),
  trimSuffix: f2((p, s) => (str(p) !== '' && str(s).endsWith(str(p)) ? str(s).slice(0, -str(p).length) : str(s))),
  trimPrefix: f2((p, s) => (str(s).startsWith(str(p)) ? str(s).slice(str(p).length) : str(s))),
  int: { arity: 1, fn: ([v]) => toInt(v) },
  float64: { arity: 1, fn: ([v]) => goFloat(toNum(v)) },
  add: variadic((ns) => ns.reduce((a, b) => a + b, 0), true),
  sub: int2((a, b) => a - b),
  mul: variadic((ns) => ns.reduce((a, b) => a * b, 1), true),
  div: int2((a, b) => {
    if (b === 0) throw new TemplateError('runtime error: integer divide by zero');
    return a / b;
  }),
  mod: int2((a, b) => {
    if (b === 0) throw new TemplateError('runtime error: integer divide by zero');
    return a % b;
  }),
  addf: { fn: (args) => goFloat(decimalFold('add', [0, ...args.map(toNum)])) },
  subf: { fn: (args) => goFloat(decimalFold('sub', args.map(toNum))) },
  mulf: { fn: (args) => goFloat(decimalFold('mul', [1, ...args.map(toNum)])) },
  divf: { fn: (args) => goFloat(decimalFold('div', args.map(toNum))) },
  max: variadic((ns) => Math.max(...ns), true),
  min: variadic((ns) => Math.min(...ns), true),
  maxf: variadic((ns) => goFloat(Math.max(...ns)), false),
  minf: variadic((ns) => goFloat(Math.min(...ns)), false),
  ceil: { arity: 1, fn: ([v]) => goFloat(Math.ceil(toNum(v))) },
  floor: { arity: 1, fn: ([v]) => goFloat(Math.floor(toNum(v))) },
  // sprig's round: up from `roundOn` (default .5) of the last place, else down.
  round: { fn: ([v, p, roundOn]) => {
    const pow = 10 ** (p === undefined ? 0 : toNum(p));
    const digit = pow * toNum(v);
    const frac = digit - Math.trunc(digit);
    return goFloat((frac >= (roundOn === undefined ? 0.5 : toNum(roundOn)) ? Math.ceil(digit) : Math.floor(digit)) / pow);
  } },
  fromJson: f1((s) => {
    try {
      return JSON.parse(s) as Value;
    } catch {
      return '';
    }
  }),
  date: f2((layout, t) => formatGoTime(toTime(t).ns, str(layout))),
  toDate: f2((layout, s) => parseGoTime(str(layout), str(s))),
  now: { arity: 0, fn: () => new GoTime(BigInt(Date.now()) * 1_000_000n) },
  unixEpoch: { arity: 1, fn: ([t]) => Number(toTime(t).ns / 1_000_000_000n) },
  default: f2((d, v) => (truthy(v) ? v : d)),
  // Go's built-ins.
  printf: { fn: ([f, ...rest]) => printf(str(f), rest) },
  print: { fn: (args) => args.map(str).join('') },
  len: { arity: 1, fn: ([v]) => (Array.isArray(v) ? v.length : typeof v === 'object' && v ? Object.keys(v).length : [...str(v)].length) },
  eq: { fn: ([a, ...rest]) => rest.some((b) => compare(a, b) === 0) },
  ne: f2((a, b) => compare(a, b) !== 0),
  lt: f2((a, b) => compare(a, b) < 0),
  le: f2((a, b) => compare(a, b) <= 0),
  gt: f2((a, b) => compare(a, b) > 0),
  ge: f2((a, b) => compare(a, b) >= 0),
  and: { fn: (args) => args.find((a) => !truthy(a)) ?? args[args.length - 1] },
  or: { fn: (args) => args.find((a) => truthy(a)) ?? args[args.length - 1] },
  not: { arity: 1, fn: ([a]) => !truthy(a) },
  index: { fn: ([m, ...keys]) => keys.reduce<Value>((acc, k) => (acc && typeof acc === 'object' ? ((acc as Record<string, Value>)[str(k)] ?? '') : ''), m) },
};

function durationSeconds(s: string): number {
  const ns = parseGoDurationNs(s);
  if (Number.isNaN(ns)) throw new TemplateError(`time: invalid duration "${s}"`);
  return ns / 1e9;
}

function replaceN(s: string, old: string, repl: string, n: number): string {
  if (n < 0) return s.split(old).join(repl);
  let out = s;
  let from = 0;
  for (let i = 0; i < n; i++) {
    const at = out.indexOf(old, from);
    if (at < 0) break;
    out = out.slice(0, at) + repl + out.slice(at + old.length);
    from = at + repl.length + (old === '' ? 1 : 0);
  }
  return out;
}

export { goDurationString };
