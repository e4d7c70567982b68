import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { alert } from 'styled-system/recipes/alert';

export type AlertStatus = 'info' | 'success' | 'warning' | 'error';

const palettes: Record<AlertStatus, string> = {
  info: css({ colorPalette: 'iris', borderColor: 'colorPalette.a7', bg: 'colorPalette.a2' }),
  success: css({ colorPalette: 'green', borderColor: 'colorPalette.a7', bg: 'colorPalette.a2' }),
  warning: css({ colorPalette: 'amber', borderColor: 'colorPalette.a7', bg: 'colorPalette.a2' }),
  error: css({ colorPalette: 'red', borderColor: 'colorPalette.a7', bg: 'colorPalette.a2' }),
};

const icons: Record<AlertStatus, string> = { info: 'ℹ', success: '✓', warning: '!', error: '✕' };

export function Alert({ status = 'info', title, children, action, className }: { status?: AlertStatus; title?: ReactNode; children?: ReactNode; action?: ReactNode; className?: string }) {
  const styles = alert();
  // Errors and warnings interrupt (role=alert); information and success are announced politely.
  return (
    <div role={status === 'error' || status === 'warning' ? 'alert' : 'status'} className={cx(styles.root, palettes[status], className)}>
      <span aria-hidden="true" className={cx(styles.icon, css({ color: 'colorPalette.11', fontWeight: 'bold', textAlign: 'center' }))}>
        {icons[status]}
      </span>
      <div className={styles.content}>
        {title && <p className={styles.title}>{title}</p>}
        {children && <div className={styles.description}>{children}</div>}
      </div>
      {action}
    </div>
  );
}
