import { css } from 'styled-system/css';
import { Spinner } from '../../components/ui/spinner';

/** Shown while the session is checked and while route code loads; never a blank page. */
export function FullPageLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <div data-testid="full-page-loading" className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', bg: 'shell.canvas' })}>
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', color: 'fg.muted', textStyle: 'sm' })}>
        <Spinner size="lg" label={label} />
        <span aria-hidden="true">{label}…</span>
      </div>
    </div>
  );
}
