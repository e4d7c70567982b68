// The editor's completion popup: the language's source is asked while the user types (after a short pause) and on
// Ctrl-Space, its options are filtered by the typed prefix and shown under the cursor as a listbox; arrows, PageUp/
// PageDown move the selection, Enter or Tab applies it, Escape closes, a click applies. It stands in for
// @codemirror/autocomplete, which cost ~9.8 kB gz of the explorer's logs session (issue 26's 150 kB budget) for the
// one-source, prefix-filtered list a query field uses; this is built on @codemirror/view and @codemirror/state only,
// which the editor loads anyway. The types keep the names and shapes of CodeMirror's, so the PromQL, LogQL and
// TraceQL sources read the same.
import { Prec, StateEffect, StateField, type EditorState, type Extension } from '@codemirror/state';
import { EditorView, ViewPlugin, keymap, showTooltip, type Tooltip, type ViewUpdate } from '@codemirror/view';
import { queryRun } from './query-run';

export interface Completion {
  label: string;
  /** The option's kind (function, keyword, property …), shown as a class for styling. */
  type?: string;
  /** The text that replaces the typed prefix; the label when absent. */
  apply?: string;
}

export interface CompletionResult {
  /** Where the replaced text starts; the typed prefix is from..cursor. */
  from: number;
  options: readonly Completion[];
  /** While the typed prefix matches, the result stays and is only filtered again; otherwise the source is asked anew. */
  validFor?: RegExp;
}

/** What a source is asked with: the state, the cursor, whether the user asked (Ctrl-Space), and an abort signal. */
export class CompletionContext {
  constructor(
    readonly state: EditorState,
    readonly pos: number,
    readonly explicit: boolean,
    readonly signal: AbortSignal = new AbortController().signal,
  ) {}

  /** True once the document changed after the request: its answer will not be shown. */
  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** The text right before the cursor (on its line) that the expression matches to its end, or null. */
  matchBefore(expr: RegExp): { from: number; to: number; text: string } | null {
    const line = this.state.doc.lineAt(this.pos);
    const start = Math.max(line.from, this.pos - 250);
    const text = line.text.slice(start - line.from, this.pos - line.from);
    const anchored = new RegExp(`(?:${expr.source})$`, expr.flags.replace('g', ''));
    const found = text.search(anchored);
    return found < 0 ? null : { from: start + found, to: this.pos, text: text.slice(found) };
  }
}

export type CompletionSource = (context: CompletionContext) => Promise<CompletionResult | null> | CompletionResult | null;

/** The open list: the source's result, the options the typed prefix leaves, the selected one. */
interface OpenList {
  result: CompletionResult;
  from: number;
  options: readonly Completion[];
  selected: number;
  id: string;
  tooltip: Tooltip;
}

const opened = StateEffect.define<{ result: CompletionResult; id: string } | null>();
const selected = StateEffect.define<number>();

/** The options whose label starts with the typed prefix (case-insensitive), in the source's order. */
export function filterOptions(options: readonly Completion[], typed: string): readonly Completion[] {
  if (!typed) return options;
  const prefix = typed.toLowerCase();
  return options.filter((o) => o.label.toLowerCase().startsWith(prefix));
}

function build(state: EditorState, result: CompletionResult, from: number, id: string, previous: OpenList | null, select: number): OpenList | null {
  const pos = state.selection.main.head;
  if (pos < from || !state.selection.main.empty) return null;
  const options = filterOptions(result.options, state.sliceDoc(from, pos));
  if (!options.length) return null;
  const tooltip = previous && previous.from === from ? previous.tooltip : { pos: from, above: false, create: (view: EditorView) => listView(view, id) };
  return { result, from, options, selected: Math.min(Math.max(select, 0), options.length - 1), id, tooltip };
}

const list = StateField.define<OpenList | null>({
  create: () => null,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(queryRun)) return null;
      if (effect.is(opened)) return effect.value ? build(tr.state, effect.value.result, effect.value.result.from, effect.value.id, null, 0) : null;
      if (effect.is(selected) && value) return { ...value, selected: Math.min(Math.max(effect.value, 0), value.options.length - 1) };
    }
    if (!value || (!tr.docChanged && !tr.selection)) return value;
    const from = tr.changes.mapPos(value.from);
    const typed = tr.state.sliceDoc(from, tr.state.selection.main.head);
    // A result without validFor holds only for the text it was asked for; one with it while the prefix still fits.
    if (tr.docChanged && (!value.result.validFor || !value.result.validFor.test(typed))) return null;
    const keep = value.options[value.selected];
    const next = build(tr.state, value.result, from, value.id, value, 0);
    return next && keep ? { ...next, selected: Math.max(next.options.indexOf(keep), 0) } : next;
  },
  provide: (field) => [
    showTooltip.compute([field], (state) => state.field(field)?.tooltip ?? null),
    EditorView.contentAttributes.compute([field], (state): Record<string, string> => {
      // The content's role is textbox, which allows no aria-expanded (axe's aria-allowed-attr); as CodeMirror's own
      // completion does, an open list is announced by aria-haspopup and aria-controls and the option by
      // aria-activedescendant.
      const open = state.field(field);
      const attrs: Record<string, string> = { 'aria-autocomplete': 'list' };
      if (open) {
        attrs['aria-haspopup'] = 'listbox';
        attrs['aria-controls'] = open.id;
        attrs['aria-activedescendant'] = `${open.id}-${open.selected}`;
      }
      return attrs;
    }),
  ],
});

// Very long lists (a Prometheus with thousands of metric names) are shown a window at a time around the selection.
const WINDOW = 100;
const PAGE = 8;

function listView(view: EditorView, id: string) {
  const dom = document.createElement('div');
  dom.className = 'cm-tooltip-autocomplete cm-completion';
  const ul = document.createElement('ul');
  ul.id = id;
  ul.setAttribute('role', 'listbox');
  ul.setAttribute('aria-label', 'Completions');
  dom.appendChild(ul);
  // The editor keeps the focus: a press on an option must not blur the content before the click applies it.
  dom.addEventListener('mousedown', (event) => event.preventDefault());
  dom.addEventListener('click', (event) => {
    const item = (event.target as HTMLElement).closest('li[data-index]');
    const open = view.state.field(list, false);
    if (item && open) applyOption(view, open, open.options[Number(item.getAttribute('data-index'))]!);
  });
  let shown: OpenList | null = null;
  const render = () => {
    const open = view.state.field(list, false);
    if (!open || open === shown) return;
    const sameOptions = shown?.options === open.options;
    shown = open;
    const start = Math.floor(open.selected / WINDOW) * WINDOW;
    if (!sameOptions || ul.getAttribute('data-start') !== String(start)) {
      ul.setAttribute('data-start', String(start));
      ul.replaceChildren(
        ...open.options.slice(start, start + WINDOW).map((option, k) => {
          const li = document.createElement('li');
          li.id = `${id}-${start + k}`;
          li.setAttribute('role', 'option');
          li.setAttribute('data-index', String(start + k));
          if (option.type) li.className = `cm-completion-${option.type}`;
          li.textContent = option.label;
          return li;
        }),
      );
    }
    for (const li of ul.children) {
      const on = li.id === `${id}-${open.selected}`;
      if (on) {
        li.setAttribute('aria-selected', 'true');
        // jsdom has no scrollIntoView; a browser scrolls the list to keep the selection visible.
        li.scrollIntoView?.({ block: 'nearest' });
      } else li.removeAttribute('aria-selected');
    }
  };
  render();
  return { dom, update: render };
}

const OPENER_CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}', '"': '"' };
/** Where the bracket closer (bracket-closing.ts) would also close a pair: at the end, before blanks and closers. */
const PAIR_BEFORE = /^(?:$|[\s)\]},])/;
/** An applied text that opens a label's value (`host="`, `host=~"`): the value list follows it. */
export const OPENS_VALUE = /[=~]"$/;

/**
 * The change that applies `text` over from..to, with the pairs the bracket closer would have made had it been typed:
 * `rate(` becomes `rate(|)` and `host="` becomes `host="|"`, so that a `)` typed next steps over the closer as it
 * does after a typed `(`, and no lone quote is left; a value's closing quote steps over the one already there.
 */
export function completionChange(doc: string, from: number, to: number, text: string) {
  const next = doc.slice(to, to + 1);
  const last = text.slice(-1);
  const opens = last === '"' ? OPENS_VALUE.test(text) : last in OPENER_CLOSER;
  if (opens && PAIR_BEFORE.test(next)) return { changes: { from, to, insert: text + OPENER_CLOSER[last]! }, anchor: from + text.length };
  if (!opens && last === '"' && next === '"') return { changes: { from, to: to + 1, insert: text }, anchor: from + text.length };
  return { changes: { from, to, insert: text }, anchor: from + text.length };
}

function applyOption(view: EditorView, open: OpenList, option: Completion) {
  const pos = view.state.selection.main.head;
  const { changes, anchor } = completionChange(view.state.doc.toString(), open.from, pos, option.apply ?? option.label);
  view.dispatch({ changes, selection: { anchor }, scrollIntoView: true, userEvent: 'input.complete', effects: opened.of(null) });
}

let lists = 0;

/** The completion for one source; `delay` is the pause after typing before the source is asked (ms). */
export function completion(source: CompletionSource, { delay = 50 }: { delay?: number } = {}): Extension {
  const requests = ViewPlugin.fromClass(
    class {
      readonly id = `cm-completion-list-${++lists}`;
      timer: ReturnType<typeof setTimeout> | undefined;
      pending: AbortController | null = null;

      constructor(readonly view: EditorView) {}

      update(update: ViewUpdate) {
        // A run closes the list (the field) and drops what was still asked, so nothing opens over the results.
        if (update.transactions.some((tr) => tr.effects.some((e) => e.is(queryRun)))) return this.cancel();
        if (!update.docChanged && !update.selectionSet && !update.focusChanged) return;
        if (update.docChanged) this.cancel();
        if (update.focusChanged && !update.view.hasFocus) {
          this.cancel();
          // A lost focus closes the list (not from inside an update: a dispatch there is refused).
          if (update.state.field(list)) setTimeout(() => this.view.state.field(list) && !this.view.hasFocus && this.view.dispatch({ effects: opened.of(null) }));
          return;
        }
        // A label name applied as `host="` goes on to its values at once, as if Ctrl-Space had been pressed.
        const head = update.state.selection.main.head;
        if (update.transactions.some((tr) => tr.isUserEvent('input.complete')) && OPENS_VALUE.test(update.state.sliceDoc(head - 2, head))) {
          this.schedule(true, 0);
          return;
        }
        const typing = update.transactions.some((tr) => tr.isUserEvent('input.type'));
        const backspace = update.transactions.some((tr) => tr.isUserEvent('delete.backward'));
        const open = update.state.field(list);
        // An open list whose prefix still fits was filtered by the field; otherwise typing asks again.
        if (open && !update.docChanged) return;
        if (typing || (backspace && (open || update.startState.field(list)))) {
          if (open) return;
          this.schedule(false, delay);
        }
      }

      schedule(explicit: boolean, wait: number) {
        this.cancel();
        const run = () => this.request(explicit);
        if (wait > 0) this.timer = setTimeout(run, wait);
        else run();
      }

      request(explicit: boolean) {
        this.timer = undefined;
        const controller = new AbortController();
        this.pending = controller;
        const state = this.view.state;
        const context = new CompletionContext(state, state.selection.main.head, explicit, controller.signal);
        void Promise.resolve()
          .then(() => source(context))
          .then(
            (result) => {
              // A stale answer (the document changed, Escape, focus lost) is dropped.
              if (controller.signal.aborted || this.pending !== controller || this.view.state.doc !== state.doc) return;
              this.pending = null;
              this.view.dispatch({ effects: opened.of(result && result.options.length ? { result, id: this.id } : null) });
            },
            () => {
              if (this.pending === controller) this.pending = null;
            },
          );
      }

      cancel() {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.pending?.abort();
        this.pending = null;
      }

      destroy() {
        this.cancel();
      }
    },
  );

  const move = (by: (open: OpenList) => number) => (view: EditorView) => {
    const open = view.state.field(list);
    if (!open) return false;
    const n = open.options.length;
    view.dispatch({ effects: selected.of(Math.min(Math.max(by(open), 0), n - 1)) });
    return true;
  };
  const accept = (view: EditorView) => {
    const open = view.state.field(list);
    if (!open) return false;
    applyOption(view, open, open.options[open.selected]!);
    return true;
  };

  return [
    list,
    requests,
    // Above the text keys: while the list is open, the arrows and Enter belong to it; closed, they fall through.
    Prec.highest(
      keymap.of([
        { key: 'Ctrl-Space', run: (view) => (view.plugin(requests)?.schedule(true, 0), true) },
        { mac: 'Alt-`', run: (view) => (view.plugin(requests)?.schedule(true, 0), true) },
        { key: 'ArrowDown', run: move((o) => (o.selected + 1) % o.options.length) },
        { key: 'ArrowUp', run: move((o) => (o.selected - 1 + o.options.length) % o.options.length) },
        { key: 'PageDown', run: move((o) => o.selected + PAGE) },
        { key: 'PageUp', run: move((o) => o.selected - PAGE) },
        { key: 'Enter', run: accept },
        { key: 'Tab', run: accept },
        {
          key: 'Escape',
          run: (view) => {
            view.plugin(requests)?.cancel();
            if (!view.state.field(list)) return false;
            view.dispatch({ effects: opened.of(null) });
            return true;
          },
        },
      ]),
    ),
    // The layout; the selected option's colours are the editor's theme (query-editor.tsx).
    EditorView.baseTheme({
      '.cm-tooltip.cm-completion > ul': {
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
        margin: 0,
        padding: 0,
        listStyle: 'none',
        maxHeight: '10em',
        minWidth: '12em',
        maxWidth: 'min(700px, 95vw)',
        overflowY: 'auto',
        whiteSpace: 'nowrap',
      },
      '.cm-tooltip.cm-completion > ul > li': { padding: '1px 6px', lineHeight: '1.3', cursor: 'pointer', overflowX: 'hidden', textOverflow: 'ellipsis' },
    }),
  ];
}
