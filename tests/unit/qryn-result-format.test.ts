// How the explorer shows and names results (explorer/result-format.ts, table-exports.tsx): values to at most six
// significant digits on screen, the legend's time to the second under a minute's step, JSON exports with numbers as
// numbers, downloads named after the query, the instance and the data's time.
import { describe, expect, it } from 'vitest';
import { displayValue, exportName, legendTime, smallestStep } from '../../src/views/stack/qryn/explorer/result-format';
import { exportJson } from '../../src/views/stack/qryn/explorer/table-exports';

describe('result formatting', () => {
  it('shows at most six significant digits; integers, NaN, ±Inf and text as they came', () => {
    expect(displayValue('0.30000000000000004')).toBe('0.3');
    expect(displayValue('1234.56789')).toBe('1234.57');
    expect(displayValue('0.000123456789')).toBe('0.000123457');
    expect(displayValue('42')).toBe('42');
    expect(displayValue('1e+21')).toBe('1e+21');
    expect(displayValue('NaN')).toBe('NaN');
    expect(displayValue('+Inf')).toBe('+Inf');
    expect(displayValue('')).toBe('');
  });

  it('gives the legend time to the second when the step is under a minute', () => {
    const t = Date.UTC(2026, 10, 29, 7, 42, 5) / 1000;
    expect(legendTime(t, 15)).toBe('2026-11-29 07:42:05');
    expect(legendTime(t, 60)).toBe('2026-11-29 07:42');
    // In the explorer's zone.
    expect(legendTime(t, 15, 'Asia/Kolkata')).toBe('2026-11-29 13:12:05');
    expect(smallestStep([0, 15, 30, 90])).toBe(15);
    expect(smallestStep([5])).toBe(Infinity);
  });

  it('names a download after the query, the instance and the data time (UTC), safe for file systems', () => {
    const at = Date.UTC(2026, 10, 29, 7, 42, 5);
    expect(exportName('rate(http_requests_total{job="api"}[5m])', 'http://h/qryn/0123456789abcdef', at)).toBe(
      'rate-http_requests_total-job-api-5m__0123456789abcdef__2026-11-29T07-42-05Z',
    );
    expect(exportName('{}', '', at)).toBe('query__2026-11-29T07-42-05Z');
    expect(exportName('x'.repeat(100), 'http://h/i/', at).split('__')[0]).toHaveLength(60);
  });

  it('exports a Value column as JSON numbers with every digit; NaN and Inf stay strings; other columns stay text', () => {
    const table = { columns: ['Series', 'Time', 'Value'], rows: [['{a="1"}', '2026-11-29T07:42:05.000Z', '0.30000000000000004'], ['7', 't', 'NaN'], ['x', 't', '+Inf']] };
    expect(JSON.parse(exportJson(table))).toEqual([
      { Series: '{a="1"}', Time: '2026-11-29T07:42:05.000Z', Value: 0.30000000000000004 },
      { Series: '7', Time: 't', Value: 'NaN' },
      { Series: 'x', Time: 't', Value: '+Inf' },
    ]);
    expect(JSON.parse(exportJson({ columns: ['Time', 'Labels', 'Line'], rows: [['t', '{}', '123']] }))).toEqual([{ Time: 't', Labels: '{}', Line: '123' }]);
  });
});
