import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import type { ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { checkbox, type CheckboxVariantProps } from 'styled-system/recipes/checkbox';

export type CheckboxProps = CheckboxVariantProps & {
  children: ReactNode;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  /** Form field name; the hidden input submits 'on' when ticked, like a native checkbox. */
  name?: string;
  value?: string;
  required?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  className?: string;
};

export function Checkbox({ size, children, checked, defaultChecked, onCheckedChange, name, value, required, disabled, invalid, className }: CheckboxProps) {
  const styles = checkbox({ size });
  return (
    <ArkCheckbox.Root
      className={cx(styles.root, className)}
      checked={checked}
      defaultChecked={defaultChecked}
      onCheckedChange={(details) => onCheckedChange?.(details.checked === true)}
      name={name}
      value={value}
      required={required}
      disabled={disabled}
      invalid={invalid}
    >
      <ArkCheckbox.Control className={styles.control}>
        <ArkCheckbox.Indicator className={styles.indicator}>
          <svg viewBox="0 0 14 14" fill="none" aria-hidden="true">
            <path d="M11.667 3.5 5.25 9.917 2.333 7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      <ArkCheckbox.Label className={styles.label}>{children}</ArkCheckbox.Label>
      <ArkCheckbox.HiddenInput />
    </ArkCheckbox.Root>
  );
}
