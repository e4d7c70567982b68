import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FORMAT_MESSAGE,
  LABEL_NAME_MESSAGE,
  LABELS_REQUIRED_MESSAGE,
  NUMERIC_PARAM_MESSAGE,
  RATE_MESSAGE,
  STRUCTURE_REQUIRED_MESSAGE,
  TIMEOUT_MESSAGE,
  URL_MESSAGE,
  parseExpression,
  timeoutSeconds,
  validateLoggenConfig,
  type LoggenConfigBody,
} from '../../contract/loggen';
import { CATALOGUE, DEFAULT_STRUCTURE, listLogOptions } from '../../server/products/loggen/log-catalogue';
import { compileExpression, compileStructure, formatLine } from '../../server/products/loggen/log-generator';
import { createTraceBuilder, lokiPushBody, metricsBody } from '../../server/products/loggen/log-shipper';
import { decodeInflux } from '../../server/products/qryn/ingest/influx';

const valid: LoggenConfigBody = {
  url: 'http://127.0.0.1:8080/qryn/1',
  headers: [],
  api_key: 'key',
  api_secret: 'secret',
  labels: [{ key: 'app', value: 'checkout' }],
  rate: 50,
  timeout: '5s',
  log_config: { format: 'logfmt', structure: [...DEFAULT_STRUCTURE] },
  enable_metrics: false,
  traces: { enabled: false, custom: false, spans: [] },
};
const options = listLogOptions();
const errorsOf = (patch: Partial<LoggenConfigBody>) => validateLoggenConfig({ ...valid, ...patch }, options);

describe('Loggen configuration rules', () => {
  it('accepts the defaults', () => expect(errorsOf({})).toEqual({}));

  it('rate is 1–100', () => {
    for (const rate of [0, 101, 1.5, -3]) expect(errorsOf({ rate }).rate).toEqual([RATE_MESSAGE]);
    for (const rate of [1, 100]) expect(errorsOf({ rate }).rate).toBeUndefined();
  });

  it('timeout is one of the seven', () => {
    expect(errorsOf({ timeout: '2m' }).timeout).toEqual([TIMEOUT_MESSAGE]);
    expect(['5s', '10s', '30s', '1m', '3m', '5m', '10m'].map((t) => timeoutSeconds(t as never))).toEqual([5, 10, 30, 60, 180, 300, 600]);
  });

  it('at least one label, with valid names and values', () => {
    expect(errorsOf({ labels: [] }).labels).toEqual([LABELS_REQUIRED_MESSAGE]);
    expect(errorsOf({ labels: [{ key: '1bad', value: 'x' }] }).labels).toEqual([LABEL_NAME_MESSAGE]);
    expect(errorsOf({ labels: [{ key: 'app', value: ' ' }] }).labels).toEqual(['Every label needs a value.']);
    expect(errorsOf({ labels: [{ key: 'app', value: 'a' }, { key: 'app', value: 'b' }] }).labels).toEqual(['Label names must be unique.']);
  });

  it('format json or logfmt, a structure with known generators and numeric params of at least 1', () => {
    expect(errorsOf({ log_config: { format: 'xml', structure: [{ name: 'a', expression: '{{app.level}}' }] } }).log_config).toEqual([FORMAT_MESSAGE]);
    expect(errorsOf({ log_config: { format: 'json', structure: [] } }).log_config).toEqual([STRUCTURE_REQUIRED_MESSAGE]);
    expect(errorsOf({ log_config: { format: 'json', structure: [{ name: 'a', expression: '{{nope.nothing}}' }] } }).log_config).toEqual(['a: Unknown generator "nope.nothing".']);
    expect(errorsOf({ log_config: { format: 'json', structure: [{ name: 'n', expression: '{{number.int({"min":0})}}' }] } }).log_config).toEqual([`n: ${NUMERIC_PARAM_MESSAGE}`]);
    expect(errorsOf({ log_config: { format: 'json', structure: [{ name: 'n', expression: '{{number.int({"min":2,"max":5})}}' }] } }).log_config).toBeUndefined();
    expect(errorsOf({ log_config: { format: 'json', structure: [{ name: 's', expression: '{{http.status({"type":"teapot"})}}' }] } }).log_config?.[0]).toMatch(/must be one of/);
    expect(errorsOf({ log_config: { format: 'json', structure: [{ name: 's', expression: '{{app.level' }] } }).log_config?.[0]).toMatch(/not a valid expression/);
  });

  it('the url is an http(s) address', () => {
    expect(errorsOf({ url: 'ftp://x' }).url).toEqual([URL_MESSAGE]);
    expect(errorsOf({ url: '' }).url).toEqual([URL_MESSAGE]);
  });

  it('custom traces need spans whose attributes resolve', () => {
    expect(errorsOf({ traces: { enabled: true, custom: true, spans: [] } }).traces).toEqual(['Add at least one span, or turn custom traces off.']);
    const span = { kind: 'server' as const, name: 'GET', duration: 5, attributes: [{ name: 'ip', value_type: 'string' as const, resolve_from_log_value: 'nope' }], spans: [] };
    expect(errorsOf({ traces: { enabled: true, custom: true, spans: [span] } }).traces).toEqual(['The log has no field "nope".']);
  });

  it('never throws on any structure text', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string({ maxLength: 10 }), expression: fc.string({ maxLength: 40 }) }), { maxLength: 5 }), (structure) => {
        const errors = validateLoggenConfig({ ...valid, log_config: { format: 'json', structure } }, options);
        // Whatever validates also compiles and generates.
        if (!errors.log_config) expect(() => compileStructure(structure)({ at: new Date() })).not.toThrow();
      }),
    );
  });
});

describe('Loggen generation', () => {
  it('every catalogue entry generates an example with its defaults', () => {
    expect(options).toHaveLength(CATALOGUE.size);
    for (const option of options) expect(option.example).not.toBe('');
  });

  it('parses expressions with and without params', () => {
    expect(parseExpression('{{app.level}}')).toEqual([{ name: 'app.level', params: {} }]);
    expect(parseExpression('id={{number.int({"min":1,"max":3})}}!')).toEqual([{ name: 'number.int', params: { min: 1, max: 3 } }]);
    expect(parseExpression('{{x({"a":)}}')).toBeNull();
  });

  it('a single generator keeps its type; text around it interpolates', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    expect(typeof compileExpression('{{number.int({"min":5,"max":5})}}')({ at })).toBe('number');
    expect(compileExpression('n={{number.int({"min":5,"max":5})}}')({ at })).toBe('n=5');
    expect(compileExpression('{{time.iso}}')({ at })).toBe('2026-01-02T03:04:05.000Z');
  });

  it('formats JSON and logfmt that parse back to the same fields', () => {
    const record = { level: 'info', msg: 'a "quoted" phrase = x', n: 3, ok: true, empty: '' };
    expect(JSON.parse(formatLine(record, 'json'))).toEqual(record);
    const line = formatLine(record, 'logfmt');
    expect(line).toBe('level=info msg="a \\"quoted\\" phrase = x" n=3 ok=true empty=""');
    const parsed = Object.fromEntries([...line.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)].map((m) => [m[1], m[2].startsWith('"') ? JSON.parse(m[2]) : m[2]]));
    expect(parsed).toEqual({ level: 'info', msg: 'a "quoted" phrase = x', n: '3', ok: 'true', empty: '' });
  });

  it('builds Loki push, line protocol and Zipkin bodies', () => {
    const at = new Date(1_700_000_000_123);
    expect(JSON.parse(lokiPushBody({ app: 'x' }, [{ at, line: 'hello' }]))).toEqual({
      streams: [{ stream: { app: 'x' }, values: [['1700000000123000000', 'hello']] }],
    });
    expect(metricsBody({ app: 'check out' }, [{ level: 'info' }, { level: 'info' }, { level: 'error' }], at).split('\n').sort()).toEqual([
      'loggen_lines,app=check\\ out,level=error total=1 1700000000123000000',
      'loggen_lines,app=check\\ out,level=info total=2 1700000000123000000',
    ]);
    // Through qryn's own Influx decoder the series is the documented loggen_lines_total.
    const names: string[] = [];
    const batch = { addSeries: (_kind: string, labels: Record<string, string>) => (names.push(labels.__name__), names.length), addMetric: () => undefined, addLog: () => undefined };
    decodeInflux(metricsBody({ app: 'x' }, [{ level: 'info' }], at), undefined, 0n, batch as unknown as Parameters<typeof decodeInflux>[3]);
    expect(names).toEqual(['loggen_lines_total']);
    const custom = createTraceBuilder(
      {
        enabled: true,
        custom: true,
        spans: [{ kind: 'server', name: 'root', duration: 10, attributes: [{ name: 'ip', value_type: 'string', resolve_from_log_value: 'ip' }], spans: [{ kind: 'client', name: 'db', duration: 4, attributes: [], spans: [] }] }],
      },
      'shop',
    ).build({ ip: '10.0.0.1' }, at);
    expect(custom.spans).toHaveLength(2);
    expect(custom.spans[1].parentId).toBe(custom.spans[0].id);
    expect(custom.spans[0]).toMatchObject({ traceId: custom.traceId, name: 'root', kind: 'SERVER', duration: 10_000, tags: { ip: '10.0.0.1' } });
  });
});
