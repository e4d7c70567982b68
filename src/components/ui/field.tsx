import { Field as ArkField, useFieldContext } from '@ark-ui/react/field';
import { forwardRef, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { css, cx } from 'styled-system/css';
import { field } from 'styled-system/recipes/field';
import { input, type InputVariantProps } from 'styled-system/recipes/input';

export type FieldProps = {
  label: ReactNode;
  /** Helper text under the control; bound to it with aria-describedby. */
  helperText?: ReactNode;
  /** Error text; shown (and bound with aria-describedby) only when present. */
  errorText?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  className?: string;
  children: ReactNode;
};

/**
 * Label, control, helper and error text. Ark's Field wires ids: the label's for, and aria-describedby plus
 * aria-invalid on the control inside (Input, Textarea, or a native select through Field.Select).
 */
export function Field({ label, helperText, errorText, required, disabled, readOnly, className, children }: FieldProps) {
  const styles = field();
  return (
    <ArkField.Root className={cx(styles.root, className)} invalid={Boolean(errorText)} required={required} disabled={disabled} readOnly={readOnly}>
      <ArkField.Label className={styles.label}>
        {label}
        {required && <ArkField.RequiredIndicator className={css({ color: 'fg.error', ms: '0.5' })}>*</ArkField.RequiredIndicator>}
      </ArkField.Label>
      {children}
      {helperText && <ArkField.HelperText className={styles.helperText}>{helperText}</ArkField.HelperText>}
      {errorText && <ArkField.ErrorText className={styles.errorText}>{errorText}</ArkField.ErrorText>}
    </ArkField.Root>
  );
}

export type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & InputVariantProps;

/**
 * Ark points aria-describedby at the helper text only and the error at aria-errormessage, which several screen
 * readers ignore; the error text is added to aria-describedby so it is read with the control.
 */
function useDescribedBy(own: string | undefined): string | undefined {
  const context = useFieldContext() as ReturnType<typeof useFieldContext> | undefined;
  const ids = [own, context?.ariaDescribedby, context?.invalid ? context.ids.errorText : undefined].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** A text input; inside a Field it picks up the label, descriptions and invalid state. */
export const Input = forwardRef<HTMLInputElement, InputProps>(function Input({ size, className, ...rest }, ref) {
  const describedBy = useDescribedBy(rest['aria-describedby']);
  return <ArkField.Input ref={ref} className={cx(input({ size }), className)} {...rest} aria-describedby={describedBy} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...rest }, ref) {
  const describedBy = useDescribedBy(rest['aria-describedby']);
  return <ArkField.Textarea ref={ref} className={cx(field().textarea, input({ size: 'md' }), css({ minH: '20', py: '2' }), className)} {...rest} aria-describedby={describedBy} />;
});

// The input recipe alone drew selects as text fields: a chevron (grey that reads on both themes) says "pick one".
const selectLook = css({
  appearance: 'none',
  bgImage: `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%2364748b' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E")`,
  _dark: { bgImage: `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%2394a3b8' stroke-width='2' stroke-linecap='round' stroke-linejoin='round'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E")` },
  bgRepeat: 'no-repeat',
  bgPosition: 'right 0.625rem center',
  bgSize: '1rem',
  pe: '8',
  textOverflow: 'ellipsis',
  cursor: 'pointer',
  _disabled: { cursor: 'not-allowed' },
});

/** A native select with a chevron; inside a Field it picks up the label, descriptions and invalid state. */
export const NativeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function NativeSelect({ className, ...rest }, ref) {
  const describedBy = useDescribedBy(rest['aria-describedby']);
  return <ArkField.Select ref={ref} className={cx(input({ size: 'md' }), selectLook, className)} {...rest} aria-describedby={describedBy} />;
});
