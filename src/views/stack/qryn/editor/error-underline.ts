// The last run's error underlined in the editor, where the instance's parser put it. A mark decoration with the
// message as its title is all the explorer needs (the message itself is the panel's alert); @codemirror/lint's
// diagnostics also brought its panel, gutter and tooltip machinery (~3.8 kB gz) for this one underline. The class
// names are lint's, so the look and the tests' selector stay the same.
import { StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

export interface UnderlinedError {
  from: number;
  to: number;
  message: string;
}

const setError = StateEffect.define<UnderlinedError | null>();

const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(underline, transaction) {
    let next = underline.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setError)) continue;
      const error = effect.value;
      const { length } = transaction.state.doc;
      if (!error || length === 0) {
        next = Decoration.none;
        continue;
      }
      // The span comes from errorSpan (never empty on a non-empty text); clamped in case the text changed since.
      const to = Math.min(Math.max(error.to, 1), length);
      const from = Math.min(Math.max(error.from, 0), to - 1);
      next = Decoration.set([Decoration.mark({ class: 'cm-lintRange cm-lintRange-error', attributes: { title: error.message } }).range(from, to)]);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const underlineTheme = EditorView.baseTheme({
  '.cm-lintRange-error': { textDecoration: 'underline wavy #d11', textUnderlineOffset: '3px' },
});

export const errorUnderline: Extension = [errorField, underlineTheme];

/** The transaction spec that shows `error` (or clears the underline with null). */
export function underlineError(error: UnderlinedError | null) {
  return { effects: setError.of(error) };
}
