import type { HTMLAttributes } from 'react';
import { css, cx } from 'styled-system/css';
import { badge, type BadgeVariantProps } from 'styled-system/recipes/badge';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger';

// The preset's subtle badge is grey whatever the palette; tones colour it explicitly.
const tones: Record<BadgeTone, string> = {
  neutral: css({ colorPalette: 'gray', bg: 'colorPalette.a3', color: 'colorPalette.11', borderColor: 'colorPalette.a6' }),
  accent: css({ colorPalette: 'iris', bg: 'colorPalette.a3', color: 'colorPalette.11', borderColor: 'colorPalette.a6' }),
  success: css({ colorPalette: 'green', bg: 'colorPalette.a3', color: 'colorPalette.11', borderColor: 'colorPalette.a6' }),
  warning: css({ colorPalette: 'amber', bg: 'colorPalette.a3', color: 'colorPalette.11', borderColor: 'colorPalette.a6' }),
  danger: css({ colorPalette: 'red', bg: 'colorPalette.a3', color: 'colorPalette.11', borderColor: 'colorPalette.a6' }),
};

export function Badge({ variant = 'subtle', size = 'sm', tone: toneName = 'neutral', className, ...rest }: HTMLAttributes<HTMLSpanElement> & BadgeVariantProps & { tone?: BadgeTone }) {
  return <span className={cx(badge({ variant, size }), tones[toneName], className)} {...rest} />;
}
