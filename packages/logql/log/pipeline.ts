import { compileAnchored, compileRe2, compileUnanchored } from '../../re2-pattern/re2-pattern';
import type { CompareOp, LabelFilter, LabelMatcher, Stage } from '../syntax/ast';
import { parseGoDurationNs } from '../syntax/duration';
import { parseBytes } from '../syntax/units';
import { compileIpPattern, lineHasIp } from './ip';
import { JsonScanner, JsonSyntaxError, jsonGet, parseJsonPath, scalarText } from './json';
import { LogfmtError, scanLogfmt } from './logfmt';
import { parsePattern, patternCaptures, patternTest } from './pattern';
import { compileTemplate, TemplateError } from './template';
import { ownLabel } from '../../labels/own-label';

// The log pipeline as Loki runs it: each stage is a pure function of (line, labels) that may change either, or drop
// the line. Labels extracted by parsers that collide with a stream label get the suffix `_extracted`; failures set
// `__error__` (and `__error_details__`) as Loki names them, and the line continues through the pipeline.

export const ERROR_LABEL = '__error__';
export const ERROR_DETAILS_LABEL = '__error_details__';
const DUPLICATE_SUFFIX = '_extracted';

/** The state of one line in the pipeline. `stream` holds the stream's own labels (for the `_extracted` rule). */
export interface Entry {
  line: string;
  labels: Record<string, string>;
  stream: Record<string, string>;
  tsNs: bigint;
}

export type StageFn = (e: Entry) => boolean;

/** Loki writes a space for U+FFFD (what an invalid byte decodes to) in parsed values: Prometheus refuses it. */
function withoutReplacementChars(value: string): string {
  return value.includes('\uFFFD') ? value.replace(/\uFFFD/g, ' ') : value;
}

function setError(e: Entry, kind: string, details?: string) {
  e.labels[ERROR_LABEL] = kind;
  if (details !== undefined) e.labels[ERROR_DETAILS_LABEL] = details;
}

/** Loki's label key sanitising: characters other than [A-Za-z0-9_] become `_`, a leading digit gets a `_`. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function sanitizeKey(key: string, isPrefix = true): string {
  if (PLAIN_KEY.test(key)) return key;
  const k = key.trim();
  if (k === '') return k;
  return (isPrefix && k[0] >= '0' && k[0] <= '9' ? '_' : '') + k.replace(/[^A-Za-z0-9_]/g, '_');
}

function extractedName(e: Entry, key: string): string {
  return Object.prototype.hasOwnProperty.call(e.stream, key) ? key + DUPLICATE_SUFFIX : key;
}

export function matcherTest(m: LabelMatcher): (v: string) => boolean {
  switch (m.op) {
    case '=':
      return (v) => v === m.value;
    case '!=':
      return (v) => v !== m.value;
    case '=~': {
      const re = compileAnchored(m.value);
      return re;
    }
    case '!~': {
      const re = compileAnchored(m.value);
      return (v) => !re(v);
    }
  }
}

const compareFn = (op: CompareOp): ((a: number, b: number) => boolean) =>
  ({ '==': (a: number, b: number) => a === b, '!=': (a: number, b: number) => a !== b, '>': (a: number, b: number) => a > b, '>=': (a: number, b: number) => a >= b, '<': (a: number, b: number) => a < b, '<=': (a: number, b: number) => a <= b })[op];

/** Parses a number as Go's strconv.ParseFloat: decimal, exponent, hex, Inf/NaN; anything else is undefined. */
export function parseGoFloat(s: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(s)) return Number(s.replace(/^([+-]?)0[xX]/, '$10x')) * (s.startsWith('-') ? -1 : 1) || parseInt(s, 16);
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return undefined;
}

export function compileLabelFilter(f: LabelFilter): StageFn {
  switch (f.type) {
    case 'and': {
      const l = compileLabelFilter(f.left);
      const r = compileLabelFilter(f.right);
      return (e) => {
        const a = l(e);
        const b = r(e);
        return a && b;
      };
    }
    case 'or': {
      const l = compileLabelFilter(f.left);
      const r = compileLabelFilter(f.right);
      return (e) => l(e) || r(e);
    }
    case 'string': {
      const test = matcherTest(f.matcher);
      const name = f.matcher.name;
      return (e) => test(ownLabel(e.labels, name) ?? '');
    }
    case 'ip': {
      const test = compileIpPattern(f.value);
      return (e) => {
        const v = ownLabel(e.labels, f.name);
        if (v === undefined) return false;
        const ok = test(v);
        return f.op === '=' ? ok : !ok;
      };
    }
    case 'number':
    case 'duration':
    case 'bytes': {
      const cmp = compareFn(f.op);
      const convert =
        f.type === 'number'
          ? (v: string) => parseGoFloat(v)
          : f.type === 'duration'
            ? (v: string) => {
                const ns = parseGoDurationNs(v);
                return Number.isNaN(ns) ? undefined : ns;
              }
            : (v: string) => parseBytes(v);
      const what = f.type === 'number' ? 'strconv.ParseFloat' : f.type === 'duration' ? 'time: invalid duration' : 'bytes';
      return (e) => {
        const v = ownLabel(e.labels, f.name);
        if (v === undefined) return false;
        const n = convert(v);
        if (n === undefined) {
          // Loki keeps the line (with the error) so that the error is visible; an earlier error is not overwritten.
          if (e.labels[ERROR_LABEL] === undefined) {
            setError(e, 'LabelFilterErr', f.type === 'number' ? `${what}: parsing ${JSON.stringify(v)}: invalid syntax` : `${what} ${JSON.stringify(v)}`);
          }
          return true;
        }
        return cmp(n, f.value);
      };
    }
  }
}

function compileLineFilter(op: string, values: string[], ip: boolean, ipValues: boolean[] | undefined): StageFn {
  const positive = op === '|=' || op === '|~' || op === '|>';
  let tests: ((line: string) => boolean)[];
  if (ip) {
    // The or-ed values (Loki 3): any of them for |=, none of them for !=; a plain string among ip()s is a substring.
    tests = values.map((v, i) => {
      if (ipValues && !ipValues[i]) return (line: string) => line.includes(v);
      const t = compileIpPattern(v);
      return (line: string) => lineHasIp(line, t);
    });
  } else if (op === '|=' || op === '!=') {
    tests = values.map((v) => (line: string) => line.includes(v));
  } else if (op === '|~' || op === '!~') {
    tests = values.map((v) => compileUnanchored(v));
  } else {
    tests = values.map((v) => {
      const parts = parsePattern(v);
      return (line: string) => patternTest(parts, line);
    });
  }
  if (tests.length === 1) {
    const t = tests[0];
    return positive ? (e) => t(e.line) : (e) => !t(e.line);
  }
  return positive ? (e) => tests.some((t) => t(e.line)) : (e) => !tests.some((t) => t(e.line));
}

/** `| json` without parameters: every scalar member, nested keys joined with `_`; arrays and nulls are skipped. */
function jsonAll(e: Entry): boolean {
  const line = e.line;
  const sc = new JsonScanner(line);
  const walk = (prefix: string) => (key: string, type: string, from: number, to: number) => {
    const part = sanitizeKey(key, prefix === '');
    const name = prefix === '' ? part : part === '' ? prefix : `${prefix}_${part}`;
    if (type === 'object') {
      sc.i = from;
      sc.object(walk(name));
      return;
    }
    if (type === 'string' || type === 'number' || type === 'boolean') {
      if (name === '') return;
      e.labels[extractedName(e, name)] = withoutReplacementChars(scalarText(line, type, from, to));
    }
  };
  try {
    sc.object(walk(''));
  } catch (err) {
    if (err instanceof JsonSyntaxError) setError(e, 'JSONParserErr', err.message);
    else throw err;
  }
  return true;
}

function jsonExpressions(extractions: { label: string; path: string }[]): StageFn {
  const paths = extractions.map((x) => ({ label: x.label, path: parseJsonPath(x.path) }));
  return (e) => {
    const line = e.line;
    if (line.length === 0) return true;
    const first = line.trimStart()[0];
    if (first !== '{' && first !== '[') {
      setError(e, 'JSONParserErr');
      return true;
    }
    for (const { label, path } of paths) {
      const name = extractedName(e, label);
      try {
        const v = jsonGet(line, path);
        e.labels[name] = v === undefined ? '' : v.type === 'object' || v.type === 'array' ? line.slice(v.from, v.to) : withoutReplacementChars(scalarText(line, v.type, v.from, v.to));
      } catch (err) {
        if (!(err instanceof JsonSyntaxError)) throw err;
        setError(e, 'JSONParserErr', err.message);
        if (ownLabel(e.labels, name) === undefined) e.labels[name] = '';
      }
    }
    return true;
  };
}

function logfmt(strict: boolean, keepEmpty: boolean, extractions: { label: string; path: string }[]): StageFn {
  const wanted = extractions.length > 0 ? new Map(extractions.map((x) => [x.path, x.label])) : undefined;
  return (e) => {
    // Of keys repeated in a line, Loki keeps the first value.
    const seen = new Set<string>();
    try {
      scanLogfmt(e.line, strict, (rawKey, value) => {
        let key: string;
        if (wanted) {
          const label = wanted.get(rawKey);
          if (label === undefined) return;
          key = label;
        } else {
          key = sanitizeKey(rawKey);
          if (key === '') return;
        }
        if (seen.has(key) || (!keepEmpty && value === '')) return;
        seen.add(key);
        e.labels[extractedName(e, key)] = withoutReplacementChars(value);
      });
    } catch (err) {
      if (!(err instanceof LogfmtError)) throw err;
      setError(e, 'LogfmtParserErr', err.message);
    }
    return true;
  };
}

function regexpParser(pattern: string): StageFn {
  const re = compileRe2(pattern);
  const groups = Object.entries(re.namedGroups()).map(([name, index]) => ({ name: sanitizeKey(name), index }));
  return (e) => {
    const m = re.matcher(e.line);
    if (!m.find()) return true;
    for (const g of groups) e.labels[extractedName(e, g.name)] = m.group(g.index) ?? '';
    return true;
  };
}

function unpack(e: Entry): boolean {
  const line = e.line;
  // As Loki: an empty line has nothing to unpack and is no error.
  if (line === '') return true;
  const found: [string, string][] = [];
  let packed: string | undefined;
  const sc = new JsonScanner(line);
  try {
    sc.object((key, type, from, to) => {
      if (type === 'object') return;
      if (type !== 'string') return;
      const value = scalarText(line, type, from, to);
      if (key === '_entry') packed = value;
      else found.push([sanitizeKey(extractedName(e, key)), value]);
    });
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    setError(e, 'JSONParserErr', err.message);
    return true;
  }
  if (packed !== undefined) {
    for (const [k, v] of found) e.labels[k] = v;
    e.line = packed;
  }
  return true;
}

// Loki's decolorize: ANSI escape sequences (the stripansi expression).
const ANSI = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:[a-zA-Z\d]*(?:;[a-zA-Z\d]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PRZcf-ntqry=><~]))/g;

export function compileStage(stage: Stage): StageFn {
  switch (stage.kind) {
    case 'line_filter':
      return compileLineFilter(stage.op, stage.values, stage.ip, stage.ipValues);
    case 'json':
      return stage.extractions.length > 0 ? jsonExpressions(stage.extractions) : jsonAll;
    case 'logfmt':
      return logfmt(stage.strict, stage.keepEmpty, stage.extractions);
    case 'regexp':
      return regexpParser(stage.pattern);
    case 'pattern': {
      const parts = parsePattern(stage.pattern);
      return (e) => {
        for (const [k, v] of patternCaptures(parts, e.line)) e.labels[extractedName(e, k)] = v;
        return true;
      };
    }
    case 'unpack':
      return unpack;
    case 'label_filter':
      return compileLabelFilter(stage.filter);
    case 'line_format': {
      const t = compileTemplate(stage.template);
      return (e) => {
        try {
          e.line = t({ labels: e.labels, line: e.line, tsNs: e.tsNs });
        } catch (err) {
          if (!(err instanceof TemplateError)) throw err;
          setError(e, 'TemplateFormatErr', err.message);
        }
        return true;
      };
    }
    case 'label_format': {
      const items = stage.items.map((it) => ({ ...it, t: it.template !== undefined ? compileTemplate(it.template) : undefined }));
      return (e) => {
        // Templates see the labels as they were before this stage.
        const before = { ...e.labels };
        for (const it of items) {
          if (it.t) {
            try {
              e.labels[it.dst] = it.t({ labels: before, line: e.line, tsNs: e.tsNs });
            } catch (err) {
              if (!(err instanceof TemplateError)) throw err;
              setError(e, 'TemplateFormatErr', err.message);
            }
          } else if (it.src !== undefined && before[it.src] !== undefined) {
            const v = before[it.src];
            if (it.src !== it.dst) delete e.labels[it.src];
            e.labels[it.dst] = v;
          }
        }
        return true;
      };
    }
    case 'drop': {
      const items = stage.items.map((it) => ({ name: it.name, test: it.matcher ? matcherTest(it.matcher) : undefined }));
      return (e) => {
        for (const it of items) {
          const v = ownLabel(e.labels, it.name);
          if (v === undefined) continue;
          if (!it.test || it.test(v)) delete e.labels[it.name];
        }
        return true;
      };
    }
    case 'keep': {
      const items = stage.items.map((it) => ({ name: it.name, test: it.matcher ? matcherTest(it.matcher) : undefined }));
      return (e) => {
        for (const name of Object.keys(e.labels)) {
          if (name === ERROR_LABEL || name === ERROR_DETAILS_LABEL) continue;
          const v = e.labels[name];
          if (!items.some((it) => it.name === name && (!it.test || it.test(v)))) delete e.labels[name];
        }
        return true;
      };
    }
    case 'decolorize':
      return (e) => {
        e.line = e.line.replace(ANSI, '');
        return true;
      };
  }
}

/** A compiled pipeline: runs the stages over a line of a stream; null when a stage drops it. */
export function compilePipeline(stages: Stage[]): (line: string, stream: Record<string, string>, tsNs: bigint) => Entry | null {
  const fns = stages.map(compileStage);
  return (line, stream, tsNs) => {
    const e: Entry = { line, labels: { ...stream }, stream, tsNs };
    for (const fn of fns) if (!fn(e)) return null;
    return e;
  };
}
