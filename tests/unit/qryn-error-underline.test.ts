// The explorer editor's error underline: the span the instance's parser named is marked (with lint's class names and
// the message as title), follows edits, is cleared by null, and a stale span is kept inside the text.
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import { errorUnderline, underlineError } from '../../src/views/stack/qryn/editor/error-underline';

function marks(state: EditorState) {
  const found: { from: number; to: number; className: string; title: string }[] = [];
  for (const source of state.facet(EditorView.decorations)) {
    const set = typeof source === 'function' ? null : source;
    set?.between(0, state.doc.length, (from, to, value) => {
      const spec = value.spec as { class: string; attributes: { title: string } };
      found.push({ from, to, className: spec.class, title: spec.attributes.title });
    });
  }
  return found;
}

describe('error underline', () => {
  it('marks the span with the message, moves with edits, and clears', () => {
    let state = EditorState.create({ doc: 'up{n=}', extensions: [errorUnderline] });
    expect(marks(state)).toEqual([]);
    state = state.update(underlineError({ from: 5, to: 6, message: 'parse error: unexpected "}"' })).state;
    expect(marks(state)).toEqual([{ from: 5, to: 6, className: 'cm-lintRange cm-lintRange-error', title: 'parse error: unexpected "}"' }]);
    state = state.update({ changes: { from: 0, insert: 'x' } }).state;
    expect(marks(state).map((m) => [m.from, m.to])).toEqual([[6, 7]]);
    state = state.update(underlineError(null)).state;
    expect(marks(state)).toEqual([]);
  });

  it('keeps a span past the end inside the text, and shows nothing on an empty text', () => {
    let state = EditorState.create({ doc: 'sum(', extensions: [errorUnderline] });
    state = state.update(underlineError({ from: 9, to: 12, message: 'unexpected end of input' })).state;
    expect(marks(state).map((m) => [m.from, m.to])).toEqual([[3, 4]]);
    state = EditorState.create({ doc: '', extensions: [errorUnderline] }).update(underlineError({ from: 0, to: 1, message: 'x' })).state;
    expect(marks(state)).toEqual([]);
  });
});
