import { Schema } from 'effect';
import type { FieldErrors } from './common';

// Loggen: the log generator's configuration, its log-structure catalogue and its streamed run (spec 001 §2 Loggen,
// §3 Loggen, §5 Loggen, §7 Loggen, §9). Rules that need the catalogue (which options exist, their params) are a
// function of the catalogue, so the console checks them with the list it loaded and the server with its own.

export const LOGGEN_TIMEOUTS = ['5s', '10s', '30s', '1m', '3m', '5m', '10m'] as const;
export const LOGGEN_FORMATS = ['json', 'logfmt'] as const;
export const SPAN_KINDS = ['server', 'client', 'internal', 'producer', 'consumer'] as const;
export const ATTRIBUTE_VALUE_TYPES = ['string', 'int', 'float', 'bool'] as const;
export const PARAM_TYPES = ['bool', 'int', 'float', 'string'] as const;

export const RATE_MESSAGE = 'The rate must be between 1 and 100';
export const LABELS_REQUIRED_MESSAGE = 'Add at least one label.';
export const LABEL_NAME_MESSAGE = 'Label names start with a letter or underscore and contain only letters, digits and underscores.';
export const LABEL_VALUE_MESSAGE = 'Every label needs a value.';
export const LABEL_UNIQUE_MESSAGE = 'Label names must be unique.';
export const FIELD_UNIQUE_MESSAGE = 'Field names must be unique.';
export const TIMEOUT_MESSAGE = 'Choose a timeout of 5s, 10s, 30s, 1m, 3m, 5m or 10m.';
export const FORMAT_MESSAGE = 'The format must be json or logfmt.';
export const STRUCTURE_REQUIRED_MESSAGE = 'Add at least one field to the log structure.';
export const FIELD_NAME_MESSAGE = 'Field names start with a letter and contain only letters, digits, dots, dashes and underscores.';
export const URL_MESSAGE = 'Enter the http(s) address of the qryn instance.';
export const URL_NOT_ALLOWED_MESSAGE = "This address is not allowed: use the project's qryn instance or a public address.";
export const URL_UNRESOLVED_MESSAGE = 'This address could not be found (its host name does not resolve).';
export const HEADER_NAME_MESSAGE = 'Header names contain only letters, digits and dashes.';
export const NUMERIC_PARAM_MESSAGE = 'Numbers must be at least 1.';
export const ALREADY_RUNNING_MESSAGE = 'Loggen is already running for this project. Wait for it to finish or stop it.';

export const timeoutSeconds = (timeout: LoggenTimeout): number =>
  timeout.endsWith('m') ? Number(timeout.slice(0, -1)) * 60 : Number(timeout.slice(0, -1));

export type LoggenTimeout = (typeof LOGGEN_TIMEOUTS)[number];
export type LoggenFormat = (typeof LOGGEN_FORMATS)[number];

const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

export const SpanAttribute = Schema.Struct({
  name: Schema.String,
  value_type: Schema.Literals(ATTRIBUTE_VALUE_TYPES),
  /** A generator expression (as in the log structure) … */
  resolve_fake: Schema.optional(Schema.String),
  /** … or the name of a log field whose value the attribute takes. */
  resolve_from_log_value: Schema.optional(Schema.String),
});
export type SpanAttribute = typeof SpanAttribute.Type;

export interface Span {
  readonly kind: (typeof SPAN_KINDS)[number];
  readonly name: string;
  /** Milliseconds. */
  readonly duration: number;
  readonly attributes: readonly SpanAttribute[];
  readonly spans: readonly Span[];
}
export const Span: Schema.Codec<Span> = Schema.Struct({
  kind: Schema.Literals(SPAN_KINDS),
  name: Schema.String,
  duration: Schema.Number,
  attributes: Schema.Array(SpanAttribute),
  spans: Schema.Array(Schema.suspend((): Schema.Codec<Span> => Span)),
});

export const LoggenTraces = Schema.Struct({
  enabled: Schema.Boolean,
  /** false: one server span per log line with the standard attributes; true: the spans below. */
  custom: Schema.Boolean,
  spans: Schema.Array(Span),
});
export type LoggenTraces = typeof LoggenTraces.Type;

// Maps whose keys the user types (labels, headers, the log structure) travel as lists of pairs: the console and the
// API convert object keys between camelCase and snake_case, which must never touch a label named service_name, and
// a list keeps the order the user gave.
export const KeyValue = Schema.Struct({ key: Schema.String, value: Schema.String });
export type KeyValue = typeof KeyValue.Type;
export const StructureField = Schema.Struct({ name: Schema.String, expression: Schema.String });
export type StructureField = typeof StructureField.Type;

export const pairsToRecord = (pairs: readonly KeyValue[]): Record<string, string> => Object.fromEntries(pairs.map((p) => [p.key, p.value]));

/** The configuration as the console edits it and PATCH config receives it (shape only; rules below). */
export const LoggenConfigBody = Schema.Struct({
  url: Schema.String,
  headers: Schema.Array(KeyValue),
  api_key: Schema.String,
  api_secret: Schema.String,
  labels: Schema.Array(KeyValue),
  rate: Schema.Number,
  timeout: Schema.String,
  log_config: Schema.Struct({
    format: Schema.String,
    /** Fields in line order, each a generator expression, e.g. {name: "status", expression: "{{http.status}}"}. */
    structure: Schema.Array(StructureField),
  }),
  enable_metrics: Schema.Boolean,
  traces: LoggenTraces,
});
export type LoggenConfigBody = typeof LoggenConfigBody.Type;

/** GET config: the saved configuration (or the defaults, pointing at the project's qryn instance). */
export const LoggenConfig = Schema.Struct({
  ...LoggenConfigBody.fields,
  project_id: Schema.Number,
  subscription_id: Schema.Number,
});
export type LoggenConfig = typeof LoggenConfig.Type;

/** PATCH config answers the next step: run-loggen starts the streamed run. */
export const SaveLoggenConfigResponse = Schema.Struct({ message: Schema.String, step: Schema.Literal('run-loggen') });
export type SaveLoggenConfigResponse = typeof SaveLoggenConfigResponse.Type;

export const LogParam = Schema.Struct({
  field: Schema.String,
  display: Schema.String,
  type: Schema.Literals(PARAM_TYPES),
  optional: Schema.Boolean,
  default: Schema.optional(Schema.Union([Schema.String, Schema.Number, Schema.Boolean])),
  options: Schema.optional(Schema.Array(Schema.String)),
  description: Schema.String,
});
export type LogParam = typeof LogParam.Type;

/** One generator the log structure can use (GET config/logs), e.g. internet.ip. */
export const LogOption = Schema.Struct({
  /** The expression's name: {{name}} or {{name({...params})}}. */
  name: Schema.String,
  display: Schema.String,
  category: Schema.String,
  description: Schema.String,
  /** A value generated now with the default params. */
  example: Schema.String,
  params: Schema.Array(LogParam),
});
export type LogOption = typeof LogOption.Type;
export const LogOptionList = Schema.Array(LogOption);

export const LogCategory = Schema.Struct({ category: Schema.String, display: Schema.String, description: Schema.String });
export type LogCategory = typeof LogCategory.Type;
export const LogCategoryList = Schema.Array(LogCategory);

/** One chunk of the streamed run (NDJSON): progress counts lines the qryn gateway accepted. */
export const LoggenRunChunk = Schema.Struct({
  current: Schema.Number,
  max: Schema.Number,
  status: Schema.Literals(['running', 'done', 'failed', 'stopped']),
  error: Schema.optional(Schema.String),
});
export type LoggenRunChunk = typeof LoggenRunChunk.Type;

/** A {{name}} or {{name({...})}} placeholder; a new RegExp each time because it is global (stateful). */
export const placeholderPattern = () => /\{\{\s*([a-zA-Z][\w.]*)\s*(?:\((.*?)\))?\s*\}\}/g;

export interface ParsedExpression {
  name: string;
  params: Record<string, unknown>;
}

/**
 * The placeholders of an expression: text with {{name}} or {{name({"param":value})}} parts (the syntax of the fake
 * data library's template helper). Returns null when a placeholder is malformed.
 */
export function parseExpression(expression: string): ParsedExpression[] | null {
  const parts: ParsedExpression[] = [];
  const placeholder = placeholderPattern();
  let rest = expression;
  for (const match of expression.matchAll(placeholder)) {
    let params: Record<string, unknown> = {};
    if (match[2] !== undefined && match[2].trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(match[2]);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
        params = parsed as Record<string, unknown>;
      } catch {
        return null;
      }
    }
    parts.push({ name: match[1], params });
    rest = rest.replace(match[0], '');
  }
  if (rest.includes('{{') || rest.includes('}}')) return null;
  return parts;
}

function checkExpression(expression: string, catalogue: ReadonlyMap<string, LogOption>): string | null {
  const parts = parseExpression(expression);
  if (parts === null) return `"${expression}" is not a valid expression: use {{generator}} or {{generator({"param": value})}}.`;
  if (parts.length === 0 && expression.trim() === '') return 'Choose a generator for every field.';
  for (const part of parts) {
    const option = catalogue.get(part.name);
    if (!option) return `Unknown generator "${part.name}".`;
    for (const [key, value] of Object.entries(part.params)) {
      const param = option.params.find((p) => p.field === key);
      if (!param) return `${option.display} has no parameter "${key}".`;
      if (param.type === 'int' || param.type === 'float') {
        if (typeof value !== 'number' || !Number.isFinite(value) || (param.type === 'int' && !Number.isInteger(value))) {
          return `${param.display} must be a ${param.type === 'int' ? 'whole number' : 'number'}.`;
        }
        if (value < 1) return NUMERIC_PARAM_MESSAGE;
      } else if (param.type === 'bool' && typeof value !== 'boolean') return `${param.display} must be true or false.`;
      else if (param.type === 'string') {
        if (typeof value !== 'string') return `${param.display} must be text.`;
        if (param.options && !param.options.includes(value)) return `${param.display} must be one of ${param.options.join(', ')}.`;
      }
    }
    for (const param of option.params) {
      if (!param.optional && !(param.field in part.params) && param.default === undefined) return `${option.display} needs ${param.display}.`;
    }
  }
  return null;
}

function checkSpans(spans: readonly Span[], structure: ReadonlySet<string>, catalogue: ReadonlyMap<string, LogOption>, errors: string[], depth: number): void {
  if (depth > 5) {
    errors.push('Spans can be nested at most 5 levels deep.');
    return;
  }
  for (const span of spans) {
    if (span.name.trim() === '') errors.push('Every span needs a name.');
    if (!Number.isInteger(span.duration) || span.duration < 1) errors.push('Span durations are whole milliseconds, at least 1.');
    for (const attribute of span.attributes) {
      if (attribute.name.trim() === '') errors.push('Every span attribute needs a name.');
      if (attribute.resolve_from_log_value !== undefined && attribute.resolve_from_log_value !== '') {
        if (!structure.has(attribute.resolve_from_log_value)) errors.push(`The log has no field "${attribute.resolve_from_log_value}".`);
      } else if (attribute.resolve_fake !== undefined && attribute.resolve_fake !== '') {
        const problem = checkExpression(attribute.resolve_fake, catalogue);
        if (problem) errors.push(problem);
      } else errors.push(`Attribute "${attribute.name}" needs a generator or a log field.`);
    }
    checkSpans(span.spans, structure, catalogue, errors, depth + 1);
  }
}

/** Every rule of §5 Loggen, per field (rate, labels, timeout, log_config, url, headers, traces). */
export function validateLoggenConfig(config: LoggenConfigBody, catalogue: readonly LogOption[]): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  try {
    const url = new URL(config.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') add('url', URL_MESSAGE);
  } catch {
    add('url', URL_MESSAGE);
  }
  for (const header of config.headers) if (!HEADER_NAME.test(header.key)) add('headers', HEADER_NAME_MESSAGE);
  if (!Number.isInteger(config.rate) || config.rate < 1 || config.rate > 100) add('rate', RATE_MESSAGE);
  if (!(LOGGEN_TIMEOUTS as readonly string[]).includes(config.timeout)) add('timeout', TIMEOUT_MESSAGE);
  if (config.labels.length === 0) add('labels', LABELS_REQUIRED_MESSAGE);
  for (const { key, value } of config.labels) {
    if (!LABEL_NAME.test(key)) add('labels', LABEL_NAME_MESSAGE);
    if (value.trim() === '') add('labels', LABEL_VALUE_MESSAGE);
  }
  if (new Set(config.labels.map((l) => l.key)).size !== config.labels.length) add('labels', LABEL_UNIQUE_MESSAGE);
  if (!(LOGGEN_FORMATS as readonly string[]).includes(config.log_config.format)) add('log_config', FORMAT_MESSAGE);
  const fields = config.log_config.structure;
  if (fields.length === 0) add('log_config', STRUCTURE_REQUIRED_MESSAGE);
  const byName = new Map(catalogue.map((option) => [option.name, option]));
  for (const { name, expression } of fields) {
    if (!FIELD_NAME.test(name)) add('log_config', FIELD_NAME_MESSAGE);
    const problem = checkExpression(expression, byName);
    if (problem) add('log_config', `${name}: ${problem}`);
  }
  const names = new Set(fields.map((f) => f.name));
  if (names.size !== fields.length) add('log_config', FIELD_UNIQUE_MESSAGE);
  if (config.traces.enabled && config.traces.custom) {
    const problems: string[] = [];
    if (config.traces.spans.length === 0) problems.push('Add at least one span, or turn custom traces off.');
    checkSpans(config.traces.spans, names, byName, problems, 1);
    for (const problem of problems) add('traces', problem);
  }
  return errors;
}
