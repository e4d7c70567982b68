// The editor's syntax colours for both themes. CodeMirror's defaultHighlightStyle has fixed light-theme colours
// (1.3–1.8:1 on the dark editor); these are the theme's step-11 colours, which switch with the theme's class and are
// made to read as text on its step-1/2 backgrounds (at least 4.5:1, checked in the browser by
// e2e/qryn-explorer-contrast.spec.ts).
import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

export const explorerHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.modifier], color: 'var(--colors-iris-11)' },
  { tag: [t.function(t.variableName)], color: 'var(--colors-iris-11)', fontWeight: '600' },
  { tag: [t.labelName, t.propertyName], color: 'var(--colors-amber-11)' },
  { tag: [t.string], color: 'var(--colors-green-11)' },
  { tag: [t.number], color: 'var(--colors-red-11)' },
  { tag: [t.comment, t.lineComment], color: 'var(--colors-gray-11)', fontStyle: 'italic' },
  { tag: [t.operator, t.arithmeticOperator, t.logicOperator, t.variableName, t.paren, t.brace, t.squareBracket, t.bracket], color: 'var(--colors-fg-default)' },
  { tag: t.invalid, color: 'var(--colors-red-11)', textDecoration: 'underline wavy' },
]);
