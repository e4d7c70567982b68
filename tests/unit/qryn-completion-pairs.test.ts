// @vitest-environment jsdom
// Completion and the bracket closer together (editor/completion.ts, bracket-closing.ts), in a real EditorView: a
// label name applied as `host="` gets its closing quote and goes straight on to the value list (no lone quote left),
// the value applied steps over that quote; a function applied as `rate(` gets its `)`, so a `)` typed next steps
// over it as after a typed `(`; and a run (the editor's queryRun effect) closes the list and drops a pending answer.
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bracketInput } from '../../src/views/stack/qryn/editor/bracket-closing';
import { completion, completionChange, type CompletionContext, type CompletionResult } from '../../src/views/stack/qryn/editor/completion';
import { queryRun } from '../../src/views/stack/qryn/editor/query-run';

Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
  document.body.replaceChildren();
});

/** Label names and functions by the word before the cursor; values after `="`, as the languages' sources answer. */
function source(context: CompletionContext): CompletionResult | null {
  const value = context.matchBefore(/="[^"]*/);
  if (value) return { from: value.from + 2, options: [{ label: 'api', apply: 'api"' }, { label: 'web', apply: 'web"' }], validFor: /^[^"]*$/ };
  const word = context.matchBefore(/\w+/);
  if (!word && !context.explicit) return null;
  const inSelector = context.state.sliceDoc(0, context.pos).lastIndexOf('{') > context.state.sliceDoc(0, context.pos).lastIndexOf('}');
  return { from: word?.from ?? context.pos, options: inSelector ? [{ label: 'host', apply: 'host="' }] : [{ label: 'rate', apply: 'rate(' }], validFor: /^\w*$/ };
}

function editor(doc: string, at = doc.length) {
  const asked: CompletionContext[] = [];
  const view = new EditorView({
    parent: document.body.appendChild(document.createElement('div')),
    state: EditorState.create({ doc, selection: { anchor: at }, extensions: completion((c) => (asked.push(c), source(c)), { delay: 5 }) }),
  });
  views.push(view);
  view.focus();
  return { view, asked };
}

/** Types through the bracket closer as the editor's input handler does. */
function type(view: EditorView, text: string) {
  for (const char of text) {
    const { from, to } = view.state.selection.main;
    view.dispatch(bracketInput(view.state, from, to, char) ?? { changes: { from, to, insert: char }, selection: { anchor: from + 1 }, userEvent: 'input.type' });
  }
}

const press = (view: EditorView, key: string) => view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
const options = () => [...document.querySelectorAll<HTMLElement>('[role=option]')].map((o) => o.textContent);
const shown = (view: EditorView) => {
  const doc = view.state.doc.toString();
  const head = view.state.selection.main.head;
  return `${doc.slice(0, head)}|${doc.slice(head)}`;
};

describe('completion with the bracket closer', () => {
  it('a label name gets its closing quote and the value list opens at once; the value steps over the quote', async () => {
    const { view } = editor('{}', 1);
    type(view, 'ho');
    await vi.waitFor(() => expect(options()).toEqual(['host']));
    press(view, 'Enter');
    expect(shown(view)).toBe('{host="|"}');
    await vi.waitFor(() => expect(options()).toEqual(['api', 'web']));
    press(view, 'Enter');
    expect(shown(view)).toBe('{host="api"|}');
  });

  it('a function gets its ) so that a typed ) steps over it, inside an outer pair too', async () => {
    const { view } = editor('sum()', 4);
    type(view, 'ra');
    await vi.waitFor(() => expect(options()).toEqual(['rate']));
    press(view, 'Enter');
    expect(shown(view)).toBe('sum(rate(|))');
    type(view, 'x[5m])');
    expect(shown(view)).toBe('sum(rate(x[5m])|)');
    type(view, ')');
    expect(shown(view)).toBe('sum(rate(x[5m]))|');
  });

  it('pairs only where the closer would: not before a word; a quote already there is stepped over', () => {
    expect(completionChange('ab', 0, 0, 'rate(')).toEqual({ changes: { from: 0, to: 0, insert: 'rate(' }, anchor: 5 });
    expect(completionChange('{h}', 1, 2, 'host="')).toEqual({ changes: { from: 1, to: 2, insert: 'host=""' }, anchor: 7 });
    expect(completionChange('{a="x"}', 4, 5, 'api"')).toEqual({ changes: { from: 4, to: 6, insert: 'api"' }, anchor: 8 });
  });

  it('a run closes the open list, and an answer still pending when the query runs is not shown', async () => {
    const { view, asked } = editor('');
    type(view, 'ra');
    await vi.waitFor(() => expect(options()).toEqual(['rate']));
    view.dispatch({ effects: queryRun.of(null) });
    expect(document.querySelector('[role=listbox]')).toBeNull();
    expect(view.contentDOM.getAttribute('aria-haspopup')).toBeNull();
    const before = asked.length;
    type(view, 't');
    view.dispatch({ effects: queryRun.of(null) });
    // Past the 5 ms pause: the source was not asked, and no list came back over the results.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(asked.length).toBe(before);
    expect(document.querySelector('[role=listbox]')).toBeNull();
  });
});

describe('the query editor', () => {
  it('Shift+Enter runs the query and closes the suggestions', async () => {
    const { render, cleanup } = await import('@testing-library/react');
    const { createElement } = await import('react');
    const { QueryEditor } = await import('../../src/views/stack/qryn/editor/query-editor');
    const onRun = vi.fn();
    const labels = { names: async () => ['job'], values: async () => ['api'] };
    render(createElement(QueryEditor, { language: 'promql', value: 'rat', onChange: () => undefined, onRun, label: 'Query (PromQL)', labels, error: null }));
    const content = document.querySelector<HTMLElement>('.cm-content')!;
    const view = EditorView.findFromDOM(content)!;
    view.focus();
    view.dispatch({ selection: { anchor: 3 } });
    // The language (and its completion) loads as its own chunk: ask until it answers.
    await vi.waitFor(() => {
      content.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', ctrlKey: true, bubbles: true, cancelable: true }));
      expect(options()).toContain('rate');
    }, { timeout: 5000 });
    content.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true, cancelable: true }));
    expect(onRun).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(document.querySelector('[role=listbox]')).toBeNull());
    expect(view.state.doc.toString()).toBe('rat');
    cleanup();
  });
});
