import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import type { ReactElement, ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { menu } from 'styled-system/recipes/menu';

export interface MenuEntry {
  value: string;
  label: ReactNode;
  /** Rendered before the label (an avatar, an icon). */
  icon?: ReactNode;
  disabled?: boolean;
  /** Called when chosen; links use asLink with a router Link or <a>. */
  onSelect?: () => void;
  asLink?: ReactElement;
}

export interface MenuGroup {
  id: string;
  label?: ReactNode;
  items: MenuEntry[];
}

export type MenuProps = {
  /** The element that opens the menu; rendered through Ark's asChild so it keeps its own semantics. */
  trigger: ReactElement;
  groups: MenuGroup[];
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Extra content at the top of the menu (for example a heading with the user's email). */
  header?: ReactNode;
  footer?: ReactNode;
  placement?: 'bottom-start' | 'bottom-end' | 'top-start' | 'top-end' | 'right-start';
  className?: string;
};

export function Menu({ trigger, groups, open, onOpenChange, header, footer, placement = 'bottom-start', className }: MenuProps) {
  const styles = menu({ size: 'sm' });
  const itemClass = cx(styles.item, css({ gap: '2.5' }));
  return (
    <ArkMenu.Root open={open} onOpenChange={(details) => onOpenChange?.(details.open)} positioning={{ placement, gutter: 6 }}>
      <ArkMenu.Trigger asChild>{trigger}</ArkMenu.Trigger>
      <Portal>
        <ArkMenu.Positioner className={styles.positioner}>
          <ArkMenu.Content className={cx(styles.content, css({ minW: '56' }), className)}>
            {header}
            {groups.map((group, index) => (
              <div key={group.id}>
                {index > 0 && <ArkMenu.Separator className={styles.separator} />}
                <ArkMenu.ItemGroup className={styles.itemGroup}>
                  {group.label && <ArkMenu.ItemGroupLabel className={styles.itemGroupLabel}>{group.label}</ArkMenu.ItemGroupLabel>}
                  {group.items.map((item) =>
                    item.asLink ? (
                      <ArkMenu.Item key={item.value} value={item.value} disabled={item.disabled} className={itemClass} asChild onSelect={item.onSelect}>
                        {withContent(item.asLink, item)}
                      </ArkMenu.Item>
                    ) : (
                      <ArkMenu.Item key={item.value} value={item.value} disabled={item.disabled} className={itemClass} onSelect={item.onSelect}>
                        {item.icon}
                        {item.label}
                      </ArkMenu.Item>
                    ),
                  )}
                </ArkMenu.ItemGroup>
              </div>
            ))}
            {footer}
          </ArkMenu.Content>
        </ArkMenu.Positioner>
      </Portal>
    </ArkMenu.Root>
  );
}

function withContent(element: ReactElement, item: MenuEntry): ReactElement {
  const Tag = element.type as React.ElementType;
  return (
    <Tag {...(element.props as object)}>
      {item.icon}
      {item.label}
    </Tag>
  );
}
