import { Tabs as ArkTabs } from '@ark-ui/react/tabs';
import type { ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { tabs, type TabsVariantProps } from 'styled-system/recipes/tabs';

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
  disabled?: boolean;
}

export type TabsProps = TabsVariantProps & {
  items: TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  'aria-label'?: string;
  className?: string;
};

export function Tabs({ items, value, defaultValue, onValueChange, variant = 'line', size = 'md', className, ...rest }: TabsProps) {
  const styles = tabs({ variant, size });
  return (
    <ArkTabs.Root className={cx(styles.root, className)} value={value} defaultValue={defaultValue ?? items[0]?.value} onValueChange={(details) => onValueChange?.(details.value)} lazyMount>
      <ArkTabs.List className={styles.list} aria-label={rest['aria-label']}>
        {items.map((item) => (
          <ArkTabs.Trigger key={item.value} value={item.value} disabled={item.disabled} className={styles.trigger}>
            {item.label}
          </ArkTabs.Trigger>
        ))}
        <ArkTabs.Indicator className={styles.indicator} />
      </ArkTabs.List>
      {items.map((item) => (
        <ArkTabs.Content key={item.value} value={item.value} className={styles.content}>
          {item.content}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  );
}
