import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import type { ReactElement, ReactNode } from 'react';
import { tooltip } from 'styled-system/recipes/tooltip';

/** A hover/focus hint. The trigger keeps its own element (asChild); disabled buttons need a wrapping span. */
export function Tooltip({ content, children, disabled }: { content: ReactNode; children: ReactElement; disabled?: boolean }) {
  const styles = tooltip();
  if (disabled) return children;
  return (
    <ArkTooltip.Root openDelay={200} closeDelay={100}>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner className={styles.positioner}>
          <ArkTooltip.Content className={styles.content}>{content}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
