import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonProps } from './button';

/** How long the "Copied" indicator stays (spec 000 section 9). */
export const COPY_INDICATOR_MS = 2000;

export function CopyButton({ value, label = 'Copy', copiedLabel = 'Copied', ...rest }: Omit<ButtonProps, 'onClick' | 'value'> & { value: string; label?: string; copiedLabel?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      return;
    }
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
  };
  return (
    <Button variant="outline" size="sm" onClick={copy} aria-live="polite" {...rest}>
      {copied ? `✓ ${copiedLabel}` : label}
    </Button>
  );
}
