// How the explorer shows a log query's lines, as Grafana's Explore offers it: wrap lines, prettify JSON, deduplication
// and order, all in the address (`wrap=1`, `prettify=1`, `dedup=exact|numbers|signature`, `order=oldest`; absent when
// off, none or newest first) so that a reload or a shared link shows the lines the same way.
import type { LogLine } from '../../../../../services/qryn-logs';

export type DedupStrategy = 'none' | 'exact' | 'numbers' | 'signature';
export type LogOrder = 'newest' | 'oldest';

export interface LogDisplay {
  wrap: boolean;
  prettify: boolean;
  dedup: DedupStrategy;
  order: LogOrder;
}

export const DEFAULT_LOG_DISPLAY: LogDisplay = { wrap: false, prettify: false, dedup: 'none', order: 'newest' };

export const DEDUP_STRATEGIES: { value: DedupStrategy; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'exact', label: 'Exact' },
  { value: 'numbers', label: 'Numbers' },
  { value: 'signature', label: 'Signature' },
];

export function readLogDisplay(params: URLSearchParams): LogDisplay {
  return {
    wrap: params.get('wrap') === '1',
    prettify: params.get('prettify') === '1',
    dedup: DEDUP_STRATEGIES.find((d) => d.value !== 'none' && d.value === params.get('dedup'))?.value ?? 'none',
    order: params.get('order') === 'oldest' ? 'oldest' : 'newest',
  };
}

export function writeLogDisplay(params: URLSearchParams, display: LogDisplay): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ['wrap', 'prettify', 'dedup', 'order']) next.delete(name);
  if (display.wrap) next.set('wrap', '1');
  if (display.prettify) next.set('prettify', '1');
  if (display.dedup !== 'none') next.set('dedup', display.dedup);
  if (display.order === 'oldest') next.set('order', 'oldest');
  return next;
}

// Grafana's rules (dedupLogRows): exact ignores ISO timestamps in the line, numbers ignores every digit, signature
// keeps only what is not a word character (the line's punctuation and spacing).
const ISO_DATE = /\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-6]\d[,.]\d+([+-][0-2]\d:[0-5]\d|Z)/g;
const COMPARED: Record<Exclude<DedupStrategy, 'none'>, (line: string) => string> = {
  exact: (line) => line.replace(ISO_DATE, ''),
  numbers: (line) => line.replace(/\d/g, ''),
  signature: (line) => line.replace(/\w/g, ''),
};

/** Consecutive duplicates folded into the first of them, with how many were folded (keyed by the kept line). */
export function dedupLines(lines: LogLine[], strategy: DedupStrategy): { lines: LogLine[]; duplicates: Map<string, number> } {
  const duplicates = new Map<string, number>();
  if (strategy === 'none') return { lines, duplicates };
  const compare = COMPARED[strategy];
  const kept: LogLine[] = [];
  // Each line is compared with the last line kept, as Grafana does.
  let keptText: string | null = null;
  for (const line of lines) {
    const text = compare(line.line);
    const last = kept[kept.length - 1];
    if (last && text === keptText) duplicates.set(last.key, (duplicates.get(last.key) ?? 0) + 1);
    else {
      kept.push(line);
      keptText = text;
    }
  }
  return { lines: kept, duplicates };
}

/** The lines in the chosen order (the instance answers newest first), then deduplicated. */
export function displayedLines(lines: LogLine[], display: LogDisplay): { lines: LogLine[]; duplicates: Map<string, number> } {
  return dedupLines(display.order === 'oldest' ? [...lines].reverse() : lines, display.dedup);
}

/** A line that is a JSON object or array, indented; any other line as it is. */
export function prettyJson(line: string): string {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return line;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return line;
  }
}
