import { cx } from 'styled-system/css';
import { skeleton } from 'styled-system/recipes/skeleton';
import { spinner, type SpinnerVariantProps } from 'styled-system/recipes/spinner';

export function Spinner({ size = 'md', label = 'Loading', className }: SpinnerVariantProps & { label?: string; className?: string }) {
  // An empty label means the spinner decorates a control that already announces its busy state.
  return label ? (
    <span role="status" aria-live="polite" className={cx(spinner({ size }), className)}>
      <span className="sr-only">{label}</span>
    </span>
  ) : (
    <span aria-hidden="true" className={cx(spinner({ size }), className)} />
  );
}

export function Skeleton({ className, height = '4', width = 'full', ...rest }: { className?: string; height?: string; width?: string; 'aria-label'?: string }) {
  const label = rest['aria-label'];
  // A labelled skeleton stands for content being loaded, like a labelled spinner: a status (a plain div may not carry
  // aria-label). Without a label it only decorates, hidden from assistive technology.
  return (
    <div
      role={label ? 'status' : undefined}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      className={cx(skeleton(), className)}
      style={{ height: `var(--sizes-${height})`, width: width === 'full' ? '100%' : `var(--sizes-${width})` }}
    />
  );
}
