// The explorer editor's bracket closing (editor/bracket-closing.ts): pairs open where nothing follows, closers are
// stepped over, a selection is wrapped, quotes after a word stay single, Backspace removes an empty pair.
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { bracketInput, pairDeletion } from '../../src/views/stack/qryn/editor/bracket-closing';

const at = (doc: string, anchor: number, head = anchor) => EditorState.create({ doc, selection: EditorSelection.single(anchor, head) });

/** Types each character as the editor's input handler sees it; what the handler leaves alone is inserted as typed. */
function type(state: EditorState, text: string): EditorState {
  for (const char of text) {
    const { from, to } = state.selection.main;
    const spec = bracketInput(state, from, to, char);
    state = spec ? state.update(spec).state : state.update({ changes: { from, to, insert: char }, selection: { anchor: from + 1 } }).state;
  }
  return state;
}

const shown = (state: EditorState) => {
  const { from, to } = state.selection.main;
  const doc = state.doc.toString();
  return from === to ? `${doc.slice(0, from)}|${doc.slice(from)}` : `${doc.slice(0, from)}[${doc.slice(from, to)}]${doc.slice(to)}`;
};

describe('bracket closing', () => {
  it('closes brackets and quotes as they are typed and steps over the closers (the text typed is the text kept)', () => {
    expect(shown(type(at('', 0), 'sum('))).toBe('sum(|)');
    expect(shown(type(at('', 0), 'explorer_e2e_value{n='))).toBe('explorer_e2e_value{n=|}');
    expect(shown(type(at('', 0), 'explorer_e2e_value{n=}'))).toBe('explorer_e2e_value{n=}|');
    expect(shown(type(at('', 0), '{job="api"}'))).toBe('{job="api"}|');
    expect(shown(type(at('', 0), 'rate(x[5m])'))).toBe('rate(x[5m])|');
    expect(shown(type(at('', 0), '`a`'))).toBe('`a`|');
  });

  it('does not open a pair before a word, nor a quote right after one', () => {
    expect(shown(type(at('x', 0), '('))).toBe('(|x');
    expect(shown(type(at('ab', 2), '"'))).toBe('ab"|');
    expect(bracketInput(at('', 0), 0, 0, 'a')).toBeNull();
    expect(bracketInput(at('', 0), 0, 0, '((')).toBeNull();
  });

  it('wraps a selection', () => {
    expect(shown(type(at('sum x', 4, 5), '('))).toBe('sum ([x])');
  });

  it('Backspace between an empty pair deletes both; elsewhere it is the usual Backspace', () => {
    const empty = at('sum()', 4);
    expect(empty.update(pairDeletion(empty)!).state.doc.toString()).toBe('sum');
    expect(pairDeletion(at('sum(x)', 5))).toBeNull();
    expect(pairDeletion(at('(]', 1))).toBeNull();
    expect(pairDeletion(at('()', 0))).toBeNull();
    expect(pairDeletion(at('()', 0, 2))).toBeNull();
  });
});
