// The editor's bracket closing: typing ( [ { " or ` inserts its closer after the cursor, typing the closer that is
// already next steps over it, a selection is wrapped, and Backspace between an empty pair deletes both. It stands in
// for @codemirror/autocomplete's closeBrackets, whose state tracking and syntax-aware rules cost 1.2 kB gz of the
// explorer's opening (issue 26's budget) for a one-line query field that needs none of them.
import type { EditorState, TransactionSpec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}', '"': '"', '`': '`' };
const CLOSERS = new Set(Object.values(CLOSER));
/** A pair opens only where nothing would be swallowed into it: at the end, before blanks, closers or separators. */
const OPENS_BEFORE = /^(?:$|[\s)\]}"`:;,>])/;

/** The change for one typed character, or null when it is typed as it is. */
export function bracketInput(state: EditorState, from: number, to: number, text: string): TransactionSpec | null {
  if (text.length !== 1 || state.selection.ranges.length !== 1) return null;
  const next = state.doc.sliceString(to, to + 1);
  if (from === to && CLOSERS.has(text) && next === text) return { selection: { anchor: to + 1 }, scrollIntoView: true, userEvent: 'input.type' };
  const closer = CLOSER[text];
  if (!closer) return null;
  if (from !== to) {
    return { changes: [{ from, insert: text }, { from: to, insert: closer }], selection: { anchor: from + 1, head: to + 1 }, userEvent: 'input.type' };
  }
  if (!OPENS_BEFORE.test(next)) return null;
  // A quote right after a word ends that word's string rather than opening one.
  if (closer === text && /\w/.test(state.doc.sliceString(from - 1, from))) return null;
  return { changes: { from, insert: text + closer }, selection: { anchor: from + 1 }, scrollIntoView: true, userEvent: 'input.type' };
}

/** Backspace between an opener and its closer (`(|)`): both go; otherwise null (the usual Backspace). */
export function pairDeletion(state: EditorState): TransactionSpec | null {
  const range = state.selection.main;
  if (state.selection.ranges.length !== 1 || !range.empty) return null;
  const before = state.doc.sliceString(range.from - 1, range.from);
  if (!before || CLOSER[before] !== state.doc.sliceString(range.from, range.from + 1)) return null;
  return { changes: { from: range.from - 1, to: range.from + 1 }, scrollIntoView: true, userEvent: 'delete.backward' };
}

function apply(view: EditorView, spec: TransactionSpec | null) {
  if (!spec) return false;
  view.dispatch(spec);
  return true;
}

/** The extension: an input handler (not while composing with an input method) and the Backspace binding. */
export const bracketClosing = [
  EditorView.inputHandler.of((view, from, to, text) => !view.composing && !view.state.readOnly && apply(view, bracketInput(view.state, from, to, text))),
  keymap.of([{ key: 'Backspace', run: (view) => apply(view, pairDeletion(view.state)) }]),
];
