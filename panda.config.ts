import { defineConfig } from '@pandacss/dev';
import { createPreset } from '@park-ui/panda-preset';
import amber from '@park-ui/panda-preset/colors/amber';
import green from '@park-ui/panda-preset/colors/green';
import iris from '@park-ui/panda-preset/colors/iris';
import slate from '@park-ui/panda-preset/colors/slate';

// Park UI gives us accessible slot recipes for every Ark UI part; we only add the console's own semantic tokens.
export default defineConfig({
  preflight: true,
  presets: ['@pandacss/preset-base', createPreset({ accentColor: iris, grayColor: slate, radius: 'md' })],
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  // Variants reach the kit's components as props, which static extraction cannot see: generate the variants of
  // the recipes the kit wraps up front.
  staticCss: {
    recipes: {
      button: ['*'],
      badge: ['*'],
      input: ['*'],
      spinner: ['*'],
      skeleton: ['*'],
      card: ['*'],
      alert: ['*'],
      checkbox: ['*'],
      select: ['*'],
      combobox: ['*'],
      dialog: ['*'],
      drawer: ['*'],
      menu: ['*'],
      tabs: ['*'],
      switchRecipe: ['*'],
      tooltip: ['*'],
      field: ['*'],
      toast: ['*'],
      popover: ['*'],
    },
  },
  theme: {
    extend: {
      tokens: {
        // The preset ships only red, gray and the accent; status colours need green and amber too.
        colors: { green: green.tokens, amber: amber.tokens },
        fonts: {
          body: { value: "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif" },
          heading: { value: "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif" },
          mono: { value: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace" },
        },
      },
      semanticTokens: {
        colors: {
          green: green.semanticTokens,
          amber: amber.semanticTokens,
          // The shell chrome sits one step away from the canvas in both themes so panels read as layers.
          shell: {
            sidebar: { value: { base: '{colors.gray.2}', _dark: '{colors.gray.1}' } },
            topbar: { value: { base: '{colors.white}', _dark: '{colors.gray.1}' } },
            canvas: { value: { base: '{colors.gray.1}', _dark: '{colors.gray.2}' } },
          },
          // The preset's error text (red.9) is under 4.5:1 on both canvases; step 11 is Radix's text step.
          fg: { error: { value: { base: '{colors.red.11}', _light: '{colors.red.11}', _dark: '{colors.red.11}' } } },
          success: {
            fg: { value: { base: '{colors.green.11}', _dark: '{colors.green.11}' } },
            bg: { value: { base: '{colors.green.3}', _dark: '{colors.green.3}' } },
          },
          warning: {
            fg: { value: { base: '{colors.amber.11}', _dark: '{colors.amber.11}' } },
            bg: { value: { base: '{colors.amber.3}', _dark: '{colors.amber.3}' } },
          },
          danger: {
            fg: { value: { base: '{colors.red.11}', _dark: '{colors.red.11}' } },
            bg: { value: { base: '{colors.red.3}', _dark: '{colors.red.3}' } },
            solid: { value: { base: '{colors.red.9}', _dark: '{colors.red.9}' } },
          },
        },
      },
    },
  },
  globalCss: {
    'html, body': { fontFamily: 'body', height: '100%' },
    body: { background: 'shell.canvas', WebkitFontSmoothing: 'antialiased' },
    '#root': { minHeight: '100%' },
    // The preflight makes links look like text; a link the view did not style itself reads as a link.
    'a[href]:not([class])': { color: 'accent.text', textDecoration: 'underline', textUnderlineOffset: '0.15em', _hover: { textDecorationThickness: '2px' } },
    '.sr-only': { position: 'absolute', width: '1px', height: '1px', padding: '0', margin: '-1px', overflow: 'hidden', clip: 'rect(0, 0, 0, 0)', whiteSpace: 'nowrap', borderWidth: '0' },
  },
});
