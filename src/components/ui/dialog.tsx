import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import type { ReactNode, RefObject } from 'react';
import { css, cx } from 'styled-system/css';
import { dialog } from 'styled-system/recipes/dialog';
import { focusIsNowhere } from './focus-return';

export type DialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Action buttons, right-aligned at the bottom. */
  footer?: ReactNode;
  /** 'alertdialog' for confirmations and errors that need an answer. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  /**
   * The control that opened the dialog, for a dialog opened without a Trigger part. By default focus goes back to
   * what had it when the dialog opened, and nowhere if that control was disabled then or when the dialog closed.
   */
  finalFocus?: RefObject<HTMLElement | null>;
};

/** Once the dialog is gone (the frame after its exit, when its content has left the page), focus back on its opener when focus was left nowhere (a disabled opener stays unfocused; see useFocusReturn). */
function returnFocus(finalFocus: RefObject<HTMLElement | null> | undefined) {
  if (focusIsNowhere()) finalFocus?.current?.focus();
}

/** A modal that closes on outside click and on Escape (spec 000 section 4), focus trapped while open. */
export function Dialog({ open, onOpenChange, title, description, children, footer, role = 'dialog', className, finalFocus }: DialogProps) {
  const styles = dialog();
  return (
    <ArkDialog.Root open={open} onOpenChange={(details) => onOpenChange(details.open)} closeOnInteractOutside closeOnEscape role={role} lazyMount unmountOnExit onExitComplete={() => requestAnimationFrame(() => returnFocus(finalFocus))}>
      <Portal>
        <ArkDialog.Backdrop className={styles.backdrop} />
        <ArkDialog.Positioner className={styles.positioner}>
          <ArkDialog.Content className={cx(styles.content, css({ w: 'min(32rem, calc(100vw - 2rem))', p: '6', display: 'flex', flexDirection: 'column', gap: '4' }), className)}>
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '1', pr: '8' })}>
              <ArkDialog.Title className={styles.title}>{title}</ArkDialog.Title>
              {description && <ArkDialog.Description className={styles.description}>{description}</ArkDialog.Description>}
            </div>
            {children}
            {footer && <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', flexWrap: 'wrap' })}>{footer}</div>}
            <ArkDialog.CloseTrigger className={cx(styles.closeTrigger, css({ position: 'absolute', top: '3', right: '3', w: '8', h: '8', borderRadius: 'l2', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'gray.a3' } }))} aria-label="Close">
              ✕
            </ArkDialog.CloseTrigger>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
