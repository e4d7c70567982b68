import { parseExpression, placeholderPattern, type LoggenFormat, type StructureField } from '../../../contract/loggen';
import { CATALOGUE, type GenerateContext } from './log-catalogue';

// Turns a saved log structure into lines. Expressions are compiled once per run; a field whose expression is a
// single generator keeps that generator's type (a number stays a number in JSON), any other text is interpolated.

export type LogRecord = Record<string, string | number | boolean>;
export type ValueGenerator = (ctx: GenerateContext) => string | number | boolean;

export function compileExpression(expression: string): ValueGenerator {
  const parts = parseExpression(expression);
  if (parts === null) throw new Error(`Invalid expression: ${expression}`);
  const resolved = parts.map((part) => {
    const entry = CATALOGUE.get(part.name);
    if (!entry) throw new Error(`Unknown generator: ${part.name}`);
    const defaults = Object.fromEntries(entry.params.filter((p) => p.default !== undefined).map((p) => [p.field, p.default]));
    const params = { ...defaults, ...part.params };
    return (ctx: GenerateContext) => entry.generate(params, ctx);
  });
  const whole = expression.replace(placeholderPattern(), '').trim() === '';
  if (whole && resolved.length === 1) return resolved[0];
  return (ctx) => {
    let index = 0;
    return expression.replace(placeholderPattern(), () => String(resolved[index++](ctx)));
  };
}

export function compileStructure(structure: readonly StructureField[]): (ctx: GenerateContext) => LogRecord {
  const fields = structure.map(({ name, expression }) => [name, compileExpression(expression)] as const);
  return (ctx) => Object.fromEntries(fields.map(([name, generate]) => [name, generate(ctx)]));
}

// logfmt: key=value pairs; a value is quoted when it is empty or holds a space, a quote, an equals sign or a control
// character, with backslash escapes inside quotes (what logfmt parsers, and Loki's | logfmt, read back).
function logfmtValue(value: string | number | boolean): string {
  const text = String(value);
  if (text !== '' && !/[\s"=\\\u0000-\u001f]/.test(text)) return text;
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

export function formatLine(record: LogRecord, format: LoggenFormat): string {
  if (format === 'json') return JSON.stringify(record);
  return Object.entries(record)
    .map(([key, value]) => `${key}=${logfmtValue(value)}`)
    .join(' ');
}
