import { css, cx } from 'styled-system/css';

// The empty track is a visible outlined groove, so 0% reads as empty and not as a full grey bar.
const track = css({
  appearance: 'none',
  display: 'block',
  w: 'full',
  h: '2',
  borderRadius: 'full',
  overflow: 'hidden',
  borderWidth: '1px',
  borderColor: 'border.default',
  bg: 'bg.subtle',
  '&::-webkit-progress-bar': { bg: 'bg.subtle' },
  '&::-webkit-progress-value': { bg: 'accent.default', borderRadius: 'full', transition: 'width 0.25s' },
  '&::-moz-progress-bar': { bg: 'accent.default', borderRadius: 'full' },
});

/** A native progress bar (role progressbar) with a visible track. */
export function ProgressBar({ label, value, max, className }: { label: string; value: number; max: number; className?: string }) {
  return <progress aria-label={label} max={max} value={Math.max(0, Math.min(value, max))} className={cx(track, className)} />;
}
