import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { button, type ButtonVariantProps } from 'styled-system/recipes/button';
import { Spinner } from './spinner';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  ButtonVariantProps & {
    /** Shows a spinner, keeps the width, and blocks clicks while an action runs. */
    loading?: boolean;
    loadingText?: ReactNode;
  };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, loading = false, loadingText, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={cx(button({ variant, size }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <>
          <Spinner size="xs" label="" />
          {loadingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
});

export type IconButtonProps = Omit<ButtonProps, 'aria-label' | 'loadingText'> & {
  /** Required: an icon has no text for assistive technology. */
  'aria-label': string;
};

export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { className, variant = 'ghost', size = 'sm', ...rest },
  ref,
) {
  return <Button ref={ref} variant={variant} size={size} className={cx('icon-button', className)} {...rest} style={{ paddingInline: 0, aspectRatio: '1', ...rest.style }} />;
});

/** The button recipe for links that look like buttons (router links, mailto). */
export { button as buttonStyles };
