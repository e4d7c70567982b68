import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/** A labelled table: column headers, and rows headed by their first cell (the Overview's types, the compatibility list). */
export function SimpleTable({ label, columns, rows }: { label: string; columns: readonly string[]; rows: readonly { key: string; cells: readonly ReactNode[] }[] }) {
  return (
    <table aria-label={label} className={css({ w: 'full', textAlign: 'left', '& th, & td': { py: '1', pr: '4' } })}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.key}</th>
            {row.cells.map((cell, i) => (
              <td key={i}>{cell}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
