// The explorer's PromQL and LogQL editors. PromQL completion: metric names, functions and keywords outside a selector; label names and values
// inside `{…}`, scoped by the metric name before the braces and the matchers already typed; grouping labels after
// `by (`; nothing inside a range. And the official grammars (Prometheus' and Grafana's lezer parsers) that highlight both
// languages, syntax errors included. The label source is a double that records what it was asked.
import type { LRLanguage } from '@codemirror/language';
import { EditorState, type Transaction } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { highlightTree, tagHighlighter, tags as t } from '@lezer/highlight';
import { describe, expect, it } from 'vitest';
import { CompletionContext } from '../../src/views/stack/qryn/editor/completion';
import type { LabelSource } from '../../src/views/stack/qryn/editor/label-source';
import { logqlLanguage } from '../../src/views/stack/qryn/editor/logql-language';
import { promql, promqlCompletion, promqlLanguage } from '../../src/views/stack/qryn/editor/promql-language';
import { textKeys } from '../../src/views/stack/qryn/editor/query-editor';

// Each highlighting tag the grammars use as one short name (a function modifier before its variable name).
const names = tagHighlighter([
  { tag: t.function(t.variableName), class: 'function' },
  { tag: t.variableName, class: 'name' },
  { tag: t.labelName, class: 'label' },
  { tag: t.keyword, class: 'keyword' },
  { tag: t.string, class: 'string' },
  { tag: t.number, class: 'number' },
  { tag: t.comment, class: 'comment' },
  { tag: t.operator, class: 'operator' },
  { tag: t.invalid, class: 'invalid' },
]);

function highlighted(language: LRLanguage, text: string): string[] {
  const out: string[] = [];
  highlightTree(language.parser.parse(text), names, (from, to, name) => out.push(`${text.slice(from, to)}:${name}`));
  return out;
}

function source() {
  const asked: string[] = [];
  const labels: LabelSource = {
    names: async (selector) => {
      asked.push(`names ${selector ?? ''}`);
      return ['__name__', 'job', 'instance'];
    },
    values: async (name, selector) => {
      asked.push(`values ${name} ${selector ?? ''}`);
      return name === '__name__' ? ['http_requests_total', 'up'] : ['api', 'we"b'];
    },
  };
  return { labels, asked };
}

async function complete(text: string, explicit = false, pos = text.length) {
  const { labels, asked } = source();
  const state = EditorState.create({ doc: text, extensions: [promql(labels)] });
  const result = await promqlCompletion(labels)(new CompletionContext(state, pos, explicit));
  return { result, asked, labels: result?.options.map((o) => o.label) ?? [], applied: result?.options.map((o) => o.apply) ?? [] };
}

describe('PromQL completion', () => {
  it('offers the instance metric names, functions and keywords for a word outside a selector', async () => {
    const { result, labels, asked } = await complete('rate(http_re');
    expect(result?.from).toBe(5);
    expect(labels).toEqual(expect.arrayContaining(['http_requests_total', 'up', 'rate', 'histogram_quantile', 'sum', 'by']));
    expect(asked).toEqual(['values __name__ ']);
  });

  it('offers nothing on an empty document unless asked', async () => {
    expect((await complete('')).result).toBeNull();
    expect((await complete('', true)).labels).toContain('up');
  });

  it('offers label names inside braces, scoped by the metric before them, without __name__ or names already used', async () => {
    const { result, labels, applied, asked } = await complete('up{job="api", ');
    expect(result?.from).toBe(14);
    expect(labels).toEqual(['instance']);
    expect(applied).toEqual(['instance="']);
    expect(asked).toEqual(['names {__name__="up", job="api"}']);
  });

  it('sends no scope when no matcher narrows the selection (Prometheus refuses such a match[])', async () => {
    const { asked } = await complete('{');
    expect(asked).toEqual(['names ']);
  });

  it('offers the values of the label being matched, quoted and escaped', async () => {
    const open = await complete('up{job=');
    expect(open.applied).toEqual(['"api"', '"we\\"b"']);
    expect(open.asked).toEqual(['values job {__name__="up"}']);
    const quoted = await complete('sum(rate(http_requests_total{job="a');
    expect(quoted.result?.from).toBe('sum(rate(http_requests_total{job="'.length);
    expect(quoted.applied).toEqual(['api"', 'we\\"b"']);
  });

  it('offers label names after by/without (', async () => {
    const { labels, result } = await complete('sum by (jo');
    expect(labels).toEqual(['job', 'instance']);
    expect(result?.from).toBe(8);
  });

  it('offers nothing inside a range', async () => {
    expect((await complete('rate(up[5')).result).toBeNull();
  });

  it('highlights LogQL by Grafana\'s grammar: selectors, line filters, pipeline stages, ranges and byte sizes', () => {
    expect(highlighted(logqlLanguage, 'sum by (level) (rate({app="x"} |= `err` | json | size > 10KB | line_format "{{.msg}}" [5m]))')).toEqual([
      'sum:function',
      'by:keyword',
      'level:label',
      'rate:function',
      'app:label',
      '=:operator',
      '"x":string',
      '|=:operator',
      '`err`:string',
      '|:operator',
      'json:keyword',
      '|:operator',
      'size:label',
      '>:operator',
      '10KB:number',
      '|:operator',
      'line_format:keyword',
      '"{{.msg}}":string',
      '[5m]:number',
    ]);
    expect(logqlLanguage.name).toBe('logql');
  });

  it('highlights PromQL by Prometheus\' grammar: functions when called, metric and label names, strings, durations, keywords, comments', () => {
    expect(highlighted(promqlLanguage, 'sum by (job) (rate(http_requests_total{job=~"a|b"}[1h30m])) > 0.5 # note')).toEqual([
      'sum:keyword',
      'by:keyword',
      'job:label',
      'rate:function',
      'http_requests_total:name',
      'job:label',
      '=~:operator',
      '"a|b":string',
      '1h30m:number',
      '>:operator',
      '0.5:number',
      '# note:comment',
    ]);
    // A metric named like a function is a metric when not called.
    expect(highlighted(promqlLanguage, 'rate offset 5m + up')).toEqual(['rate:name', 'offset:keyword', '5m:number', '+:operator', 'up:name']);
  });

  it('marks what the grammar cannot parse as invalid while it is typed', () => {
    expect(highlighted(promqlLanguage, 'rate(up[5m]) ) 3')).toEqual(['rate:function', 'up:name', '5m:number', '):invalid', '3:invalid']);
    expect(highlighted(logqlLanguage, 'rate({app="x"}[5m]) ) 3')).toContain('):invalid');
    expect(highlighted(promqlLanguage, 'up{job="a"}').some((token) => token.endsWith(':invalid'))).toBe(false);
    expect(highlighted(logqlLanguage, '{job="a"} |= "x" | json').some((token) => token.endsWith(':invalid'))).toBe(false);
  });

  it('is the language of the extension (closing brackets and comments from its data)', () => {
    const state = EditorState.create({ doc: 'up', extensions: [promql(source().labels)] });
    expect(state.languageDataAt<string[]>('closeBrackets', 1)[0]).toMatchObject({ brackets: expect.arrayContaining(['(', '{', '"']) });
    expect(promqlLanguage.name).toBe('promql');
  });
});

describe("The editor's text keys", () => {
  it('break a line with Enter without indenting it, inside brackets too', () => {
    const enter = textKeys.find((binding) => binding.key === 'Enter')!.run!;
    // Between brackets the standard keymap's Enter would open an indented empty line (`sum(\n\n)`).
    let state = EditorState.create({ doc: 'sum()', selection: { anchor: 4 }, extensions: [promql(source().labels)] });
    const view = { get state() { return state; }, dispatch: (tr: Transaction) => (state = tr.state) } as unknown as EditorView;
    expect(enter(view)).toBe(true);
    expect(state.doc.toString()).toBe('sum(\n)');
    expect(state.selection.main.head).toBe(5);
  });

  it('bind the text-field keys a query field needs and none of the code-editing extras', () => {
    const keys = textKeys.map((binding) => binding.key ?? binding.mac);
    expect(keys).toEqual(expect.arrayContaining(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Backspace', 'Delete', 'Mod-a', 'Enter']));
    expect(keys).not.toContain('Alt-ArrowUp');
    expect(keys).not.toContain('Mod-/');
  });
});
