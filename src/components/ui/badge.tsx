import type { HTMLAttributes } from 'react';
import { css, cx } from 'styled-system/css';
import { badge, type BadgeVariantProps } from 'styled-system/recipes/badge';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

const tones: Record<BadgeTone, string> = {
  neutral: css({ colorPalette: 'gray' }),
  accent: css({ colorPalette: 'iris' }),
  success: css({ colorPalette: 'green' }),
  warning: css({ colorPalette: 'amber' }),
  danger: css({ colorPalette: 'red' }),
};

export function Badge({ variant = 'subtle', size = 'sm', tone = 'neutral', className, ...rest }: HTMLAttributes<HTMLSpanElement> & BadgeVariantProps & { tone?: BadgeTone }) {
  return <span className={cx(tones[tone], badge({ variant, size }), className)} {...rest} />;
}
