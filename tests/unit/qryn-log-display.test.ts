// How the explorer shows log lines: the toggles in the address, Grafana's deduplication rules (exact ignoring ISO
// times, numbers ignoring digits, signature keeping only punctuation and spacing), the order, and JSON indented.
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../src/services/qryn-logs';
import { dedupLines, DEFAULT_LOG_DISPLAY, displayedLines, prettyJson, readLogDisplay, writeLogDisplay } from '../../src/views/stack/qryn/explorer/logs/log-display';

const line = (key: string, text: string): LogLine => ({ key, tsNs: '1', line: text, labels: {}, level: 'info' });

describe('the line display in the address', () => {
  it('writes only what is not the default and reads it back', () => {
    expect(writeLogDisplay(new URLSearchParams('query=x'), DEFAULT_LOG_DISPLAY).toString()).toBe('query=x');
    const display = { wrap: true, prettify: true, dedup: 'numbers' as const, order: 'oldest' as const };
    const written = writeLogDisplay(new URLSearchParams('query=x'), display);
    expect(written.toString()).toBe('query=x&wrap=1&prettify=1&dedup=numbers&order=oldest');
    expect(readLogDisplay(written)).toEqual(display);
    expect(readLogDisplay(new URLSearchParams('wrap=yes&dedup=fuzzy&order=up'))).toEqual(DEFAULT_LOG_DISPLAY);
  });
});

describe('deduplication', () => {
  const lines = [
    line('a', 'GET /cart 200 in 12ms at 2026-11-29T10:00:00.123Z'),
    line('b', 'GET /cart 200 in 12ms at 2026-11-29T10:00:01.456Z'),
    line('c', 'GET /cart 200 in 15ms at 2026-11-29T10:00:02.789Z'),
    line('d', 'PUT /user 500 in 99ms at 2026-11-29T10:00:03.000Z'),
    line('e', 'GET /cart 200 in 12ms at 2026-11-29T10:00:04.000Z'),
  ];
  it('none keeps every line', () => {
    expect(dedupLines(lines, 'none').lines).toHaveLength(5);
  });
  it('exact folds consecutive lines equal but for their ISO times', () => {
    const { lines: kept, duplicates } = dedupLines(lines, 'exact');
    expect(kept.map((l) => l.key)).toEqual(['a', 'c', 'd', 'e']);
    expect([...duplicates]).toEqual([['a', 1]]);
  });
  it('numbers folds lines that differ only in digits', () => {
    const { lines: kept, duplicates } = dedupLines(lines, 'numbers');
    expect(kept.map((l) => l.key)).toEqual(['a', 'd', 'e']);
    expect(duplicates.get('a')).toBe(2);
  });
  it('signature folds lines with the same punctuation and spacing', () => {
    const { lines: kept, duplicates } = dedupLines(lines, 'signature');
    expect(kept.map((l) => l.key)).toEqual(['a']);
    expect(duplicates.get('a')).toBe(4);
  });
  it('orders oldest first before folding', () => {
    expect(displayedLines(lines, { ...DEFAULT_LOG_DISPLAY, order: 'oldest', dedup: 'exact' }).lines.map((l) => l.key)).toEqual(['e', 'd', 'c', 'b']);
  });
});

describe('prettify JSON', () => {
  it('indents a JSON object and leaves other lines alone', () => {
    expect(prettyJson('{"a":1,"b":{"c":"x"}}')).toBe('{\n  "a": 1,\n  "b": {\n    "c": "x"\n  }\n}');
    expect(prettyJson('level=info msg=ok')).toBe('level=info msg=ok');
    expect(prettyJson('{not json')).toBe('{not json');
  });
});
