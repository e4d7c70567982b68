import { Combobox as ArkCombobox, useListCollection } from '@ark-ui/react/combobox';
import { Portal } from '@ark-ui/react/portal';
import { useFilter } from '@ark-ui/react/locale';
import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { combobox, type ComboboxVariantProps } from 'styled-system/recipes/combobox';
import { Chevron, type SelectItem } from './select';

export type ComboboxProps = ComboboxVariantProps & {
  label: ReactNode;
  items: SelectItem[];
  value?: string[];
  onValueChange?: (value: string[]) => void;
  placeholder?: string;
  name?: string;
  disabled?: boolean;
  emptyText?: string;
  className?: string;
};

/** A searchable single choice (for example a country among ~249). */
export function Combobox({ label, items, value, onValueChange, placeholder = 'Search…', name, disabled, emptyText = 'No matches', size, className }: ComboboxProps) {
  const styles = combobox({ size });
  const { contains } = useFilter({ sensitivity: 'base' });
  const { collection, filter } = useListCollection({ initialItems: items, filter: contains, isItemDisabled: (item) => Boolean(item.disabled) });
  return (
    <ArkCombobox.Root
      className={cx(styles.root, className)}
      collection={collection}
      value={value}
      onValueChange={(details) => onValueChange?.(details.value)}
      onInputValueChange={(details) => filter(details.inputValue)}
      name={name}
      disabled={disabled}
      openOnClick
      // Typing highlights the first match, so Enter takes it (keyboard use; the list still opens on arrows).
      inputBehavior="autohighlight"
      positioning={{ sameWidth: true }}
    >
      <ArkCombobox.Label className={styles.label}>{label}</ArkCombobox.Label>
      <ArkCombobox.Control className={styles.control}>
        <ArkCombobox.Input className={styles.input} placeholder={placeholder} />
        <ArkCombobox.Trigger className={styles.trigger} aria-label="Show options">
          <Chevron />
        </ArkCombobox.Trigger>
      </ArkCombobox.Control>
      <Portal>
        <ArkCombobox.Positioner className={styles.positioner}>
          {/* Above a dialog (zIndex modal): the list opens from forms inside dialogs too (the billing card form). */}
          <ArkCombobox.Content className={cx(styles.content, css({ zIndex: 'popover' }))}>
            {collection.items.length === 0 && <p style={{ padding: '8px', opacity: 0.7 }}>{emptyText}</p>}
            {collection.items.map((item) => (
              <ArkCombobox.Item key={item.value} item={item} className={styles.item}>
                <ArkCombobox.ItemText className={styles.itemText}>{item.label}</ArkCombobox.ItemText>
                <ArkCombobox.ItemIndicator className={styles.itemIndicator}>✓</ArkCombobox.ItemIndicator>
              </ArkCombobox.Item>
            ))}
          </ArkCombobox.Content>
        </ArkCombobox.Positioner>
      </Portal>
    </ArkCombobox.Root>
  );
}
