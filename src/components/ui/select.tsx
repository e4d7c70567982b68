import { Portal } from '@ark-ui/react/portal';
import { createListCollection, Select as ArkSelect } from '@ark-ui/react/select';
import { useMemo, type ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { select, type SelectVariantProps } from 'styled-system/recipes/select';

export interface SelectItem {
  label: string;
  value: string;
  disabled?: boolean;
}

export type SelectProps = SelectVariantProps & {
  label: ReactNode;
  items: SelectItem[];
  value?: string[];
  defaultValue?: string[];
  onValueChange?: (value: string[]) => void;
  placeholder?: string;
  /** Several values may be chosen (for example projects of an invitation). */
  multiple?: boolean;
  /** Form field name; a hidden native select submits the value. */
  name?: string;
  disabled?: boolean;
  invalid?: boolean;
  errorText?: ReactNode;
  className?: string;
};

export function Select({ label, items, value, defaultValue, onValueChange, placeholder = 'Select…', multiple, name, disabled, invalid, errorText, size, variant, className }: SelectProps) {
  const styles = select({ size, variant });
  const collection = useMemo(() => createListCollection({ items, isItemDisabled: (item) => Boolean(item.disabled) }), [items]);
  return (
    <ArkSelect.Root
      className={cx(styles.root, className)}
      collection={collection}
      value={value}
      defaultValue={defaultValue}
      onValueChange={(details) => onValueChange?.(details.value)}
      multiple={multiple}
      name={name}
      disabled={disabled}
      invalid={invalid || Boolean(errorText)}
      positioning={{ sameWidth: true }}
    >
      <ArkSelect.Label className={styles.label}>{label}</ArkSelect.Label>
      <ArkSelect.Control className={styles.control}>
        <ArkSelect.Trigger className={styles.trigger}>
          <ArkSelect.ValueText className={styles.valueText} placeholder={placeholder} />
          <ArkSelect.Indicator className={styles.indicator}>
            <Chevron />
          </ArkSelect.Indicator>
        </ArkSelect.Trigger>
      </ArkSelect.Control>
      {errorText && (
        <p role="alert" style={{ color: 'var(--colors-fg-error)', fontSize: 'var(--font-sizes-sm)' }}>
          {errorText}
        </p>
      )}
      <Portal>
        <ArkSelect.Positioner className={styles.positioner}>
          <ArkSelect.Content className={styles.content}>
            {collection.items.map((item) => (
              <ArkSelect.Item key={item.value} item={item} className={styles.item}>
                <ArkSelect.ItemText className={styles.itemText}>{item.label}</ArkSelect.ItemText>
                <ArkSelect.ItemIndicator className={styles.itemIndicator}>✓</ArkSelect.ItemIndicator>
              </ArkSelect.Item>
            ))}
          </ArkSelect.Content>
        </ArkSelect.Positioner>
      </Portal>
      <ArkSelect.HiddenSelect />
    </ArkSelect.Root>
  );
}

export function Chevron() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}
