import { Dialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { css, cx } from 'styled-system/css';
import { drawer } from 'styled-system/recipes/drawer';
import { Sidebar } from './sidebar';

/** The sidebar as a drawer on small screens (sidebar=open). Loaded when first opened (shell-layout.tsx). */
export function NavigationDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const drawerStyles = drawer({ variant: 'left' });
  return (
    <Dialog.Root open={open} onOpenChange={(details) => onOpenChange(details.open)} lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop className={drawerStyles.backdrop} />
        <Dialog.Positioner className={drawerStyles.positioner}>
          <Dialog.Content className={cx(drawerStyles.content, css({ w: '72', maxW: '85vw', bg: 'shell.sidebar', p: '0' }))}>
            <Dialog.Title className="sr-only">Navigation</Dialog.Title>
            <Sidebar onNavigate={() => onOpenChange(false)} />
            <Dialog.CloseTrigger className={cx(drawerStyles.closeTrigger, css({ position: 'absolute', top: '3', right: '3', w: '8', h: '8', borderRadius: 'l2', cursor: 'pointer', _hover: { bg: 'gray.a3' } }))} aria-label="Close navigation">
              ✕
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
