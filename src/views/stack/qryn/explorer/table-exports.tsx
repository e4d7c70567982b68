import { useMemo } from 'react';
import { css } from 'styled-system/css';
import { buttonStyles } from '../../../../components/ui/button';
import { tableCsv, type ViewTable } from '../../../../services/qryn-view';

const dataUrl = (type: string, text: string) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;

/**
 * The table as JSON objects, a Value column's numbers as JSON numbers (what a script reading the file expects) with
 * every digit the instance gave; NaN and ±Inf, which JSON has no number for, stay strings as Prometheus writes them.
 */
export function exportJson(table: ViewTable): string {
  const cell = (column: string, value: string) => {
    if (column !== 'Value') return value;
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : value;
  };
  return JSON.stringify(
    table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, cell(c, row[i] ?? '')]))),
    null,
    2,
  );
}

/** A result as `<name>.csv` / `<name>.json` (explorer/result-format.ts' exportName), built in the browser. */
export function TableExports({ table, name }: { table: ViewTable; name: string }) {
  const exports = useMemo(() => ({ csv: dataUrl('text/csv', tableCsv(table)), json: dataUrl('application/json', exportJson(table)) }), [table]);
  return (
    <div className={css({ display: 'flex', gap: '2' })}>
      <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download={`${name}.csv`} href={exports.csv}>
        Export CSV
      </a>
      <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download={`${name}.json`} href={exports.json}>
        Export JSON
      </a>
    </div>
  );
}
