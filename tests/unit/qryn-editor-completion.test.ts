// @vitest-environment jsdom
// The explorer editor's completion popup (editor/completion.ts) in a real EditorView: typing asks the source and shows
// its options, filtered by the typed prefix, as a listbox the content points at (aria-haspopup, aria-controls,
// aria-activedescendant); the arrows move aria-selected, Enter and a click apply `apply ?? label` over the prefix,
// Escape closes, Ctrl-Space asks explicitly, and an answer that arrives after the document changed is dropped.
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completion, CompletionContext, filterOptions, type CompletionResult } from '../../src/views/stack/qryn/editor/completion';

// jsdom lays nothing out: CodeMirror's measuring (a frame after each update) reads text ranges' rectangles.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const views: EditorView[] = [];
afterEach(() => {
  for (const view of views.splice(0)) view.destroy();
  document.body.replaceChildren();
});

/** An editor whose source answers words with a fixed list; `answer` may be swapped to hold a request back. */
function editor(doc = '') {
  const asked: { pos: number; explicit: boolean; context: CompletionContext }[] = [];
  const state = {
    answer: (context: CompletionContext): Promise<CompletionResult | null> | CompletionResult | null => {
      const word = context.matchBefore(/\w+/);
      if (!word && !context.explicit) return null;
      return {
        from: word?.from ?? context.pos,
        options: [{ label: 'rate', apply: 'rate(' }, { label: 'rate_counter' }, { label: 'sum' }, { label: 'Rare' }],
        validFor: /^\w*$/,
      };
    },
  };
  const view = new EditorView({
    parent: document.body.appendChild(document.createElement('div')),
    state: EditorState.create({
      doc,
      selection: { anchor: doc.length },
      extensions: completion(
        (context) => {
          asked.push({ pos: context.pos, explicit: context.explicit, context });
          return state.answer(context);
        },
        { delay: 5 },
      ),
    }),
  });
  views.push(view);
  view.focus();
  return { view, asked, state };
}

function type(view: EditorView, text: string) {
  for (const char of text) {
    const at = view.state.selection.main.head;
    view.dispatch({ changes: { from: at, insert: char }, selection: { anchor: at + 1 }, userEvent: 'input.type' });
  }
}

function press(view: EditorView, key: string, init: KeyboardEventInit = {}) {
  view.contentDOM.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init }));
}

const listbox = () => document.querySelector<HTMLElement>('[role=listbox]');
const options = () => [...document.querySelectorAll<HTMLElement>('[role=option]')].map((o) => o.textContent);
const selectedOption = () => document.querySelector<HTMLElement>('[role=option][aria-selected=true]')?.textContent;

describe('editor completion', () => {
  it('opens a listbox with the options that start with the typed prefix, and the content points at it', async () => {
    const { view, asked } = editor();
    expect(view.contentDOM.getAttribute('aria-controls')).toBeNull();
    type(view, 'ra');
    await vi.waitFor(() => expect(listbox()).not.toBeNull());
    expect(options()).toEqual(['rate', 'rate_counter', 'Rare']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ pos: 2, explicit: false });
    expect(view.contentDOM.getAttribute('aria-haspopup')).toBe('listbox');
    expect(view.contentDOM.getAttribute('aria-controls')).toBe(listbox()!.id);
    expect(view.contentDOM.getAttribute('aria-activedescendant')).toBe(document.querySelector('[role=option][aria-selected=true]')!.id);
    expect(selectedOption()).toBe('rate');

    // Typing on within validFor filters the same result again without asking the source.
    type(view, 't');
    expect(options()).toEqual(['rate', 'rate_counter']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toHaveLength(1);
  });

  it('moves aria-selected with the arrows (wrapping) and PageDown, and Enter applies `apply` over the prefix', async () => {
    const { view } = editor('x + ');
    type(view, 'r');
    await vi.waitFor(() => expect(selectedOption()).toBe('rate'));
    press(view, 'ArrowDown');
    expect(selectedOption()).toBe('rate_counter');
    expect(view.contentDOM.getAttribute('aria-activedescendant')).toBe(document.querySelector('[role=option][aria-selected=true]')!.id);
    press(view, 'ArrowUp');
    press(view, 'ArrowUp');
    expect(selectedOption()).toBe('Rare');
    press(view, 'PageUp');
    expect(selectedOption()).toBe('rate');
    press(view, 'Enter');
    // The opener comes with its closer, as a typed one would (qryn-completion-pairs.test.ts).
    expect(view.state.doc.toString()).toBe('x + rate()');
    expect(view.state.selection.main.head).toBe(9);
    expect(listbox()).toBeNull();
    expect(view.contentDOM.getAttribute('aria-controls')).toBeNull();
  });

  it('Tab applies the label when the option has no apply; a click applies the clicked option', async () => {
    const first = editor();
    type(first.view, 'rate_');
    await vi.waitFor(() => expect(options()).toEqual(['rate_counter']));
    press(first.view, 'Tab');
    expect(first.view.state.doc.toString()).toBe('rate_counter');

    const second = editor();
    type(second.view, 's');
    await vi.waitFor(() => expect(options()).toEqual(['sum']));
    document.querySelector<HTMLElement>('[role=option]')!.click();
    expect(second.view.state.doc.toString()).toBe('sum');
  });

  it('Escape closes the list and leaves the text; Enter without a list is not taken', async () => {
    const { view } = editor();
    type(view, 'su');
    await vi.waitFor(() => expect(listbox()).not.toBeNull());
    press(view, 'Escape');
    expect(listbox()).toBeNull();
    expect(view.state.doc.toString()).toBe('su');
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    view.contentDOM.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(false);
  });

  it('Ctrl-Space asks explicitly, with nothing typed', async () => {
    const { view, asked } = editor();
    press(view, ' ', { code: 'Space', ctrlKey: true });
    await vi.waitFor(() => expect(options()).toEqual(['rate', 'rate_counter', 'sum', 'Rare']));
    expect(asked.at(-1)).toMatchObject({ pos: 0, explicit: true });
  });

  it('drops an answer that arrives after the document changed, and aborts its request', async () => {
    const { view, asked, state } = editor();
    const held: ((result: CompletionResult) => void)[] = [];
    const answer = state.answer;
    state.answer = () => new Promise((resolve) => held.push(resolve));
    type(view, 'ra');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // The user types on: the first request is stale.
    state.answer = answer;
    type(view, 'x');
    expect(asked[0]!.context.aborted).toBe(true);
    held[0]!({ from: 0, options: [{ label: 'stale_option' }] });
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(options()).not.toContain('stale_option');
    expect(listbox()).toBeNull();
  });
});

describe('completion context and filter', () => {
  it('matchBefore finds the expression ending at the cursor, on the cursor line only', () => {
    const state = EditorState.create({ doc: 'up\nrate(http_re' });
    expect(new CompletionContext(state, state.doc.length, false).matchBefore(/[a-z_]+/)).toEqual({ from: 8, to: 15, text: 'http_re' });
    expect(new CompletionContext(state, 8, false).matchBefore(/[a-z_]+/)).toBeNull();
  });

  it('filters by prefix, ignoring case, in the source order', () => {
    expect(filterOptions([{ label: 'Sum' }, { label: 'abs' }, { label: 'sum_over_time' }], 's').map((o) => o.label)).toEqual(['Sum', 'sum_over_time']);
  });
});
