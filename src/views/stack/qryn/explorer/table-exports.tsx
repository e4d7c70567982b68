import { useMemo } from 'react';
import { css } from 'styled-system/css';
import { buttonStyles } from '../../../../components/ui/button';
import { tableCsv, tableJson, type ViewTable } from '../../../../services/qryn-view';

const dataUrl = (type: string, text: string) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;

/** A result as YourData.csv / YourData.json, built in the browser (the View's export, for metrics and logs alike). */
export function TableExports({ table }: { table: ViewTable }) {
  const exports = useMemo(() => ({ csv: dataUrl('text/csv', tableCsv(table)), json: dataUrl('application/json', tableJson(table)) }), [table]);
  return (
    <div className={css({ display: 'flex', gap: '2' })}>
      <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.csv" href={exports.csv}>
        Export CSV
      </a>
      <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.json" href={exports.json}>
        Export JSON
      </a>
    </div>
  );
}
