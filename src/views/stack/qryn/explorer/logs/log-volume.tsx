// The logs volume above the lines: the count of lines per level per step as stacked bars (plain SVG, a few hundred
// rectangles at most), with a summary for assistive technology and the numbers as a table on request.
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { LogLevel, LogVolume } from '../../../../../services/qryn-logs';
import { formatInZone, useTimeZone } from '../time-zone';
import { LEVEL_COLOURS, LEVEL_NAMES } from './log-levels';

const HEIGHT = 96;

/** "1,204 lines from 14:00 to 15:00: 1,000 info, 204 error." */
export function volumeSummary(volume: LogVolume): string {
  const byLevel = volume.levels.map((level) => {
    const n = volume.buckets.reduce((sum, b) => sum + (b.counts[level] ?? 0), 0);
    return `${n.toLocaleString('en-US')} ${LEVEL_NAMES[level]}`;
  });
  const lines = `${volume.total.toLocaleString('en-US')} ${volume.total === 1 ? 'line' : 'lines'}`;
  const steps = `${volume.buckets.length} ${volume.buckets.length === 1 ? 'step' : 'steps'}`;
  return `Log volume: ${lines} in ${steps} of ${volume.stepSeconds}s${byLevel.length ? `: ${byLevel.join(', ')}` : ''}.`;
}

export function LogVolumeChart({ volume, range }: { volume: LogVolume; range: { from: number; to: number } }) {
  const zone = useTimeZone();
  const [showTable, setShowTable] = useState(false);
  const stepMs = volume.stepSeconds * 1000;
  const span = Math.max(stepMs, range.to - range.from);
  const max = Math.max(1, ...volume.buckets.map((b) => volume.levels.reduce((s, l) => s + (b.counts[l] ?? 0), 0)));
  const summary = volumeSummary(volume);
  const barWidth = Math.max(0.2, (stepMs / span) * 1000 * 0.8);
  return (
    <figure aria-label="Log volume" className={css({ display: 'flex', flexDirection: 'column', gap: '1', m: '0' })}>
      <svg role="img" aria-label={summary} viewBox={`0 0 1000 ${HEIGHT}`} preserveAspectRatio="none" className={css({ w: 'full', h: '24', bg: 'bg.subtle', borderRadius: 'l2' })}>
        {volume.buckets.map((bucket) => {
          let y = HEIGHT;
          const x = ((bucket.t - range.from) / span) * 1000;
          return volume.levels.map((level: LogLevel) => {
            const n = bucket.counts[level] ?? 0;
            if (n <= 0) return null;
            const h = (n / max) * (HEIGHT - 4);
            y -= h;
            return <rect key={`${bucket.t}-${level}`} x={x} y={y} width={barWidth} height={h} fill={LEVEL_COLOURS[level]} />;
          });
        })}
      </svg>
      <figcaption className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center', textStyle: 'xs', color: 'fg.muted' })}>
        {volume.levels.map((level) => (
          <span key={level} className={css({ display: 'inline-flex', alignItems: 'center', gap: '1' })}>
            <span aria-hidden="true" style={{ background: LEVEL_COLOURS[level] }} className={css({ display: 'inline-block', w: '2.5', h: '2.5', borderRadius: 'full' })} />
            {LEVEL_NAMES[level]}
          </span>
        ))}
        <span>{summary}</span>
        <button type="button" className={css({ textDecoration: 'underline', cursor: 'pointer' })} aria-expanded={showTable} onClick={() => setShowTable((v) => !v)}>
          {showTable ? 'Hide the volume numbers' : 'Show the volume numbers'}
        </button>
      </figcaption>
      {showTable && (
        <table aria-label="Log volume by level" className={css({ textStyle: 'xs', '& th, & td': { pr: '3', textAlign: 'left' } })}>
          <thead>
            <tr>
              <th scope="col">Step start ({zone})</th>
              {volume.levels.map((l) => (
                <th key={l} scope="col">
                  {LEVEL_NAMES[l]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {volume.buckets.map((b) => (
              <tr key={b.t}>
                <td>{formatInZone(b.t, zone)}</td>
                {volume.levels.map((l) => (
                  <td key={l}>{b.counts[l] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </figure>
  );
}
