import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import { useId, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
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
  /** Error text under the box (implies invalid): outlines the box and is read with it (aria-describedby). */
  errorText?: string;
  className?: string;
};

export function Checkbox({ size, children, checked, defaultChecked, onCheckedChange, name, value, required, disabled, invalid, errorText, className }: CheckboxProps) {
  const styles = checkbox({ size });
  const errorId = useId();
  return (
    <>
      <ArkCheckbox.Root
        className={cx(styles.root, className)}
        checked={checked}
        defaultChecked={defaultChecked}
        onCheckedChange={(details) => onCheckedChange?.(details.checked === true)}
        name={name}
        value={value}
        required={required}
        disabled={disabled}
        invalid={invalid || Boolean(errorText)}
      >
        <ArkCheckbox.Control className={cx(styles.control, css({ _invalid: { borderColor: 'fg.error', borderWidth: '2px' } }))}>
          <ArkCheckbox.Indicator className={styles.indicator}>
            <svg viewBox="0 0 14 14" fill="none" aria-hidden="true">
              <path d="M11.667 3.5 5.25 9.917 2.333 7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </ArkCheckbox.Indicator>
        </ArkCheckbox.Control>
        <ArkCheckbox.Label className={styles.label}>{children}</ArkCheckbox.Label>
        <ArkCheckbox.HiddenInput aria-describedby={errorText ? errorId : undefined} />
      </ArkCheckbox.Root>
      {errorText && (
        <p id={errorId} role="alert" className={css({ color: 'fg.error', fontSize: 'sm', mt: '1' })}>
          {errorText}
        </p>
      )}
    </>
  );
}
