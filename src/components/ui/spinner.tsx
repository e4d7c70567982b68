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
  return <div aria-hidden={rest['aria-label'] ? undefined : true} aria-label={rest['aria-label']} className={cx(skeleton(), className)} style={{ height: `var(--sizes-${height})`, width: width === 'full' ? '100%' : `var(--sizes-${width})` }} />;
}
