import { compilePipeline } from '../../../../packages/logql/log/pipeline';
import type { CompiledLogSelector } from '../../../../packages/logql/log/stream-pipeline';

// Loki's detected fields: a sample of lines is parsed as JSON, or else as logfmt (Loki's order), and every field
// found is reported with the parser, the type of its first value (int, float, boolean, duration, bytes, string, in
// Loki's order of trial) and its cardinality (exact here over the sample; Loki estimates it with a sketch).

export interface DetectedField {
  label: string;
  type: 'int' | 'float' | 'boolean' | 'duration' | 'bytes' | 'string';
  cardinality: number;
  parsers: string[] | null;
}

const json = compilePipeline([{ kind: 'json', extractions: [] }]);
const logfmt = compilePipeline([{ kind: 'logfmt', strict: false, keepEmpty: false, extractions: [] }]);

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$/;
const BYTES = /^\s*(\d+(\.\d+)?|\.\d+)\s*([kmgtpez]i?b?|b|bytes?)\s*$/i;

/** The type Loki gives a value: the first of these its parse functions accept. */
export function fieldType(value: string): DetectedField['type'] {
  if (/^[+-]?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return 'int';
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) || /^[+-]?(inf|infinity|nan)$/i.test(value)) return 'float';
  if (['1', '0', 't', 'f', 'T', 'F', 'true', 'false', 'TRUE', 'FALSE', 'True', 'False'].includes(value)) return 'boolean';
  if (value === '0' || GO_DURATION.test(value)) return 'duration';
  if (BYTES.test(value)) return 'bytes';
  return 'string';
}

/** The fields of each line (after the query's own pipeline), with the parser that found them. */
function fieldsOf(selector: CompiledLogSelector, entry: { labels: Record<string, string>; tsNs: bigint; line: string }): { fields: [string, string][]; parser: string | null } | undefined {
  const out = selector.process(entry.line, entry.labels, entry.tsNs);
  if (!out) return undefined;
  const fields = new Map<string, string>();
  // Labels the query's own parsers added.
  for (const [k, v] of Object.entries(out.labels)) if (entry.labels[k] !== v && !k.startsWith('__')) fields.set(k, v);
  let parser: string | null = 'json';
  let parsed = json(out.line, out.labels, entry.tsNs);
  if (!parsed || parsed.labels.__error__) {
    parser = 'logfmt';
    parsed = logfmt(out.line, out.labels, entry.tsNs);
    if (!parsed || parsed.labels.__error__) {
      parser = null;
      parsed = null;
    }
  }
  if (parsed) for (const [k, v] of Object.entries(parsed.labels)) if (out.labels[k] !== v && !k.startsWith('__')) fields.set(k, v);
  return { fields: [...fields], parser };
}

export function detectFields(selector: CompiledLogSelector, lines: { labels: Record<string, string>; tsNs: bigint; line: string }[], limit: number): DetectedField[] {
  const found = new Map<string, { type: DetectedField['type']; values: Set<string>; parsers: Set<string> }>();
  for (const entry of lines) {
    const result = fieldsOf(selector, entry);
    if (!result) continue;
    for (const [name, value] of result.fields) {
      let field = found.get(name);
      if (!field) {
        if (found.size >= limit) continue;
        field = { type: fieldType(value), values: new Set(), parsers: new Set() };
        found.set(name, field);
      }
      field.values.add(value);
      if (result.parser) field.parsers.add(result.parser);
    }
  }
  return [...found]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, f]) => ({ label, type: f.type, cardinality: f.values.size, parsers: f.parsers.size > 0 ? [...f.parsers].sort() : null }));
}

/** The values of one detected field over the sample. */
export function detectedFieldValues(selector: CompiledLogSelector, lines: { labels: Record<string, string>; tsNs: bigint; line: string }[], name: string, limit: number): string[] {
  const values = new Set<string>();
  for (const entry of lines) {
    const result = fieldsOf(selector, entry);
    for (const [k, v] of result?.fields ?? []) if (k === name && values.size < limit) values.add(v);
  }
  return [...values].sort();
}
