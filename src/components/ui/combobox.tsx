import { Combobox as ArkCombobox, useListCollection } from '@ark-ui/react/combobox';
import { Portal } from '@ark-ui/react/portal';
import { useFilter } from '@ark-ui/react/locale';
import { useId, type ReactNode } from 'react';
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
  /** Marks the label with an asterisk, as Field does for the other required controls. */
  required?: boolean;
  /** Error text under the control: outlines it, sets aria-invalid and is read with it (aria-describedby). */
  errorText?: string;
};

/** A searchable single choice (for example a country among ~249). */
export function Combobox({ label, items, value, onValueChange, placeholder = 'Search…', name, disabled, emptyText = 'No matches', size, className, required, errorText }: ComboboxProps) {
  const styles = combobox({ size });
  const errorId = useId();
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
      required={required}
      invalid={Boolean(errorText)}
      openOnClick
      // Typing highlights the first match, so Enter takes it (keyboard use; the list still opens on arrows).
      inputBehavior="autohighlight"
      positioning={{ sameWidth: true }}
    >
      <ArkCombobox.Label className={styles.label}>
        {label}
        {/* Hidden from the accessible name, which stays the label's text; the input carries aria-required. */}
        {required && (
          <span aria-hidden="true" className={css({ color: 'fg.error', ms: '0.5' })}>
            *
          </span>
        )}
      </ArkCombobox.Label>
      <ArkCombobox.Control className={styles.control}>
        <ArkCombobox.Input
          className={cx(styles.input, css({ _invalid: { borderColor: 'fg.error', _focus: { outlineColor: 'fg.error' } } }))}
          placeholder={placeholder}
          aria-required={required || undefined}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={errorText ? errorId : undefined}
        />
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
      {errorText && (
        <p id={errorId} role="alert" className={css({ color: 'fg.error', fontSize: 'sm', mt: '1' })}>
          {errorText}
        </p>
      )}
    </ArkCombobox.Root>
  );
}
