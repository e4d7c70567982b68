// @vitest-environment jsdom
// The log list draws only the rows in view: the window arithmetic with opened rows of measured heights, and the list
// of 5,000 lines in a document, which holds the first rows and no more; the line limit read from the address.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogLine } from '../../src/services/qryn-logs';
import { LogLines, ROW_HEIGHT } from '../../src/views/stack/qryn/explorer/logs/log-lines';
import { lineLimitOf } from '../../src/views/stack/qryn/explorer/logs/logs-panel';
import { rowAt, rowOffset, rowWindow } from '../../src/views/stack/qryn/explorer/logs/log-window';

afterEach(cleanup);

const none = new Map<number, number>();

describe('the rows in view', () => {
  it('without opened rows: the rows under the viewport and the overscan, at their offset', () => {
    expect(rowWindow({ count: 5000, rowHeight: 20, extra: none, scrollTop: 0, viewport: 200, overscan: 5 })).toEqual({ start: 0, end: 15, top: 0, total: 100_000 });
    expect(rowWindow({ count: 5000, rowHeight: 20, extra: none, scrollTop: 1000, viewport: 200, overscan: 5 })).toEqual({ start: 45, end: 65, top: 900, total: 100_000 });
    expect(rowWindow({ count: 5000, rowHeight: 20, extra: none, scrollTop: 99_900, viewport: 200, overscan: 5 })).toMatchObject({ start: 4990, end: 5000 });
    expect(rowWindow({ count: 0, rowHeight: 20, extra: none, scrollTop: 0, viewport: 200, overscan: 5 })).toEqual({ start: 0, end: 0, top: 0, total: 0 });
  });

  it('an opened row pushes the rows after it down by its details', () => {
    const extra = new Map([[10, 300]]);
    expect(rowOffset(10, 20, extra)).toBe(200);
    expect(rowOffset(11, 20, extra)).toBe(520);
    // Offsets inside the opened row's details still belong to it.
    expect(rowAt(205, 5000, 20, extra)).toBe(10);
    expect(rowAt(519, 5000, 20, extra)).toBe(10);
    expect(rowAt(520, 5000, 20, extra)).toBe(11);
    expect(rowAt(199, 5000, 20, extra)).toBe(9);
    const shown = rowWindow({ count: 5000, rowHeight: 20, extra, scrollTop: 520, viewport: 100, overscan: 0 });
    expect(shown).toEqual({ start: 11, end: 16, top: 520, total: 100_300 });
  });
});

const line = (i: number): LogLine => ({ key: `k${i}`, tsNs: `${1_700_000_000_000 + i}000000`, line: `line number ${i}`, labels: { app: 'a' }, level: 'info' }) as LogLine;

describe('the log list', () => {
  it('holds a window of rows in the document, not every line, with their place in the whole', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => line(i));
    render(<LogLines lines={lines} parsedQuery={false} onFilter={() => undefined} onOpenTrace={() => undefined} />);
    const list = screen.getByRole('list', { name: 'Log lines' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0]!.textContent).toContain('line number 0');
    expect(rows[0]!.getAttribute('aria-setsize')).toBe('5000');
    expect(rows[0]!.getAttribute('aria-posinset')).toBe('1');
    expect(list.style.height).toBe(`${5000 * ROW_HEIGHT}px`);
  });
});

describe('the line limit', () => {
  it('is one of 100, 1,000 and 5,000 from the address, else 1,000', () => {
    expect(lineLimitOf('5000')).toBe(5000);
    expect(lineLimitOf('100')).toBe(100);
    expect(lineLimitOf(null)).toBe(1000);
    expect(lineLimitOf('7')).toBe(1000);
  });
});
