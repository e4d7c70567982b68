// The explorer's query editor (CodeMirror 6) for PromQL, LogQL and TraceQL: highlighting, completion from the
// instance, the last run's error underlined where the instance's parser put it (error-underline.ts),
// Shift+Enter runs. Tab is not bound, so it moves focus on as everywhere else (no keyboard trap) unless the completion
// list (completion.ts, which each language's extension brings) is open, where it takes the option;
// Escape closes it. The content element carries the field's accessible name.
import {
  cursorCharLeft, cursorCharRight, cursorDocEnd, cursorDocStart, cursorGroupLeft, cursorGroupRight, cursorLineBoundaryBackward,
  cursorLineBoundaryForward, cursorLineBoundaryLeft, cursorLineBoundaryRight, cursorLineDown, cursorLineUp, deleteCharBackward,
  deleteCharForward, deleteGroupBackward, deleteGroupForward, deleteLineBoundaryBackward, deleteLineBoundaryForward, history,
  historyKeymap, insertNewline, selectAll, selectCharLeft, selectCharRight, selectDocEnd, selectDocStart, selectGroupLeft,
  selectGroupRight, selectLineBoundaryBackward, selectLineBoundaryForward, selectLineBoundaryLeft, selectLineBoundaryRight,
  selectLineDown, selectLineUp,
} from '@codemirror/commands';
import { bracketMatching, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText, type KeyBinding } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { css } from 'styled-system/css';
import type { ExplorerLanguage } from '../../../../machines/qryn-explorer/explorer-url';
import { errorPosition, errorSpan } from '../../../../services/qryn-explorer';
import { bracketClosing } from './bracket-closing';
import { explorerHighlight } from './editor-highlight';
import { errorUnderline, underlineError } from './error-underline';
import { explainQueryError } from './query-error';
import { queryRun } from './query-run';
import type { LabelSource } from './label-source';

export interface QueryEditorProps {
  language: ExplorerLanguage;
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  /** The accessible name of the editor (the visible label's text). */
  label: string;
  placeholder?: string;
  /** Prometheus metric and label names (PromQL), Loki labels (LogQL) or Tempo tags (TraceQL) for completion. */
  labels: LabelSource;
  /** The last run's error: underlined at the position the instance's parser gave. */
  error: string | null;
  describedBy?: string;
}

// The platform's text-field keys (the bindings of CodeMirror's standard keymap a query field uses: cursor and selection
// by character, word, line and document, deletion, select all). Enter inserts a plain line break: a query has no
// indentation to continue, so the standard keymap's insertNewlineAndIndent (and the indentation machinery it pulls
// in) is not loaded.
export const textKeys: KeyBinding[] = [
  { key: 'ArrowLeft', run: cursorCharLeft, shift: selectCharLeft, preventDefault: true },
  { key: 'Mod-ArrowLeft', mac: 'Alt-ArrowLeft', run: cursorGroupLeft, shift: selectGroupLeft, preventDefault: true },
  { mac: 'Cmd-ArrowLeft', run: cursorLineBoundaryLeft, shift: selectLineBoundaryLeft, preventDefault: true },
  { key: 'ArrowRight', run: cursorCharRight, shift: selectCharRight, preventDefault: true },
  { key: 'Mod-ArrowRight', mac: 'Alt-ArrowRight', run: cursorGroupRight, shift: selectGroupRight, preventDefault: true },
  { mac: 'Cmd-ArrowRight', run: cursorLineBoundaryRight, shift: selectLineBoundaryRight, preventDefault: true },
  { key: 'ArrowUp', run: cursorLineUp, shift: selectLineUp, preventDefault: true },
  { key: 'ArrowDown', run: cursorLineDown, shift: selectLineDown, preventDefault: true },
  { mac: 'Cmd-ArrowUp', run: cursorDocStart, shift: selectDocStart },
  { mac: 'Cmd-ArrowDown', run: cursorDocEnd, shift: selectDocEnd },
  { key: 'Home', run: cursorLineBoundaryBackward, shift: selectLineBoundaryBackward, preventDefault: true },
  { key: 'End', run: cursorLineBoundaryForward, shift: selectLineBoundaryForward, preventDefault: true },
  { key: 'Mod-Home', run: cursorDocStart, shift: selectDocStart },
  { key: 'Mod-End', run: cursorDocEnd, shift: selectDocEnd },
  { key: 'Enter', run: insertNewline },
  { key: 'Mod-a', run: selectAll },
  { key: 'Backspace', run: deleteCharBackward, shift: deleteCharBackward, preventDefault: true },
  { key: 'Delete', run: deleteCharForward, preventDefault: true },
  { key: 'Mod-Backspace', mac: 'Alt-Backspace', run: deleteGroupBackward, preventDefault: true },
  { key: 'Mod-Delete', mac: 'Alt-Delete', run: deleteGroupForward, preventDefault: true },
  { mac: 'Mod-Backspace', run: deleteLineBoundaryBackward, preventDefault: true },
  { mac: 'Mod-Delete', run: deleteLineBoundaryForward, preventDefault: true },
];

const theme = EditorView.theme({
  '&': { fontSize: '14px', border: '1px solid var(--colors-border-default)', borderRadius: '6px', background: 'var(--colors-bg-default)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '2.5em', padding: '6px 4px', caretColor: 'var(--colors-fg-default)' },
  '&.cm-focused': { outline: 'none' },
  // The focused element is the content: its outline is the focus indicator people see.
  '.cm-content:focus-visible, &.cm-focused .cm-content': { outline: '2px solid var(--colors-accent-default, #2563eb)', outlineOffset: '1px', borderRadius: '4px' },
  '.cm-placeholder': { color: 'var(--colors-fg-muted)' },
  // The popup takes the theme's colours: CodeMirror's tooltip is light grey whatever the theme, and its text inherited
  // the dark theme's near-white.
  '.cm-tooltip': { background: 'var(--colors-bg-default)', color: 'var(--colors-fg-default)', border: '1px solid var(--colors-border-default)', borderRadius: '6px' },
  '.cm-tooltip.cm-completion > ul > li[aria-selected]': { background: 'var(--colors-iris-9)', color: 'white' },
  '.cm-matchingBracket': { background: 'var(--colors-iris-4)', color: 'inherit' },
  '.cm-nonmatchingBracket': { color: 'var(--colors-red-11)' },
});

// Each language (its grammar and completion) is its own chunk, loaded when chosen.
async function languageExtension(props: QueryEditorProps): Promise<Extension> {
  if (props.language === 'promql') return (await import('./promql-language')).promql(props.labels);
  if (props.language === 'logql') return (await import('./logql-language')).logql(props.labels);
  return (await import('./traceql-language')).traceql(props.labels);
}

export function QueryEditor(props: QueryEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const attributes = useRef(new Compartment());
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const run = (editor: EditorView) => {
      editor.dispatch({ effects: queryRun.of(null) });
      latest.current.onRun();
      return true;
    };
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          Prec.highest(keymap.of([{ key: 'Shift-Enter', run }, { key: 'Mod-Enter', run }])),
          history(),
          bracketClosing,
          bracketMatching(),
          syntaxHighlighting(explorerHighlight),
          // The text-field keys without defaultKeymap's code-editing extras (line moves, comment toggling,
          // indentation, syntax selection) a one-query field has no use for.
          keymap.of([...textKeys, ...historyKeymap]),
          EditorView.lineWrapping,
          theme,
          errorUnderline,
          language.current.of([]),
          attributes.current.of([]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // The language (and the instance its completion reads) changes in place; the document stays.
  const { language: lang, labels } = props;
  useEffect(() => {
    let gone = false;
    void languageExtension(latest.current).then((extension) => {
      if (!gone) view.current?.dispatch({ effects: language.current.reconfigure(extension) });
    });
    return () => {
      gone = true;
    };
  }, [lang, labels]);

  useEffect(() => {
    const content: Record<string, string> = { 'aria-label': props.label };
    if (props.describedBy) content['aria-describedby'] = props.describedBy;
    view.current?.dispatch({
      effects: attributes.current.reconfigure([EditorView.contentAttributes.of(content), props.placeholder ? placeholderText(props.placeholder) : []]),
    });
  }, [props.label, props.describedBy, props.placeholder]);

  // A value set from outside (the label browser, the history, the address) replaces the document.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== props.value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: props.value }, selection: { anchor: props.value.length } });
    }
  }, [props.value]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const position = props.error ? errorPosition(props.error) : null;
    const text = editor.state.doc.toString();
    editor.dispatch(underlineError(position && text ? { ...errorSpan(text, position), message: explainQueryError(props.error!, text) } : null));
  }, [props.error]);

  return <div ref={host} data-language={props.language} className={css({ w: 'full', minW: '0' })} />;
}
