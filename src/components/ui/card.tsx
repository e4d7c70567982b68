import { useId, type HTMLAttributes, type ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { card } from 'styled-system/recipes/card';

export type CardProps = Omit<HTMLAttributes<HTMLElement>, 'title'> & {
  title?: ReactNode;
  description?: ReactNode;
  /** Buttons or links shown at the bottom of the card. */
  footer?: ReactNode;
  /** Extra content placed at the right of the title (a badge, a menu). */
  headerAction?: ReactNode;
};

/** A titled section; the title names the region for screen readers. */
export function Card({ title, description, footer, headerAction, className, children, ...rest }: CardProps) {
  const styles = card();
  const titleId = useId();
  return (
    <section className={cx(styles.root, className)} aria-labelledby={title ? titleId : undefined} {...rest}>
      {(title || description) && (
        <div className={styles.header} style={{ display: 'flex', flexDirection: 'row', justifyContent: 'space-between', gap: '12px' }}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: '4px', minWidth: 0 }}>
            {title && (
              <h2 id={titleId} className={styles.title}>
                {title}
              </h2>
            )}
            {description && <p className={styles.description}>{description}</p>}
          </div>
          {headerAction}
        </div>
      )}
      {children !== undefined && <div className={styles.body}>{children}</div>}
      {footer && <div className={styles.footer}>{footer}</div>}
    </section>
  );
}
