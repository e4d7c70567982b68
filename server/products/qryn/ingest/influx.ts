import { Batch, IngestError } from './batch';

// InfluxDB line protocol (v1 /write and v2 /api/v2/write): `measurement[,tag=v…] field=v[,field=v…] [timestamp]`.
// No maintained JavaScript parser of the format exists on the registry, so this one follows the reference
// (docs.influxdata.com, "Line protocol"): backslash escapes of comma, equals and space in names, quoted string
// fields with \" and \\, integers `1i`, unsigned `1u`, floats, booleans t/T/true/True/TRUE/f/F/false/False/FALSE.
// Numeric and boolean fields become metric samples named <measurement>_<field>; string fields become log lines.

export type InfluxField = { kind: 'number'; value: number } | { kind: 'string'; value: string };
export interface InfluxPoint {
  measurement: string;
  tags: Record<string, string>;
  fields: Record<string, InfluxField>;
  timestamp: bigint | undefined;
}

const PRECISION: Record<string, bigint> = { ns: 1n, n: 1n, us: 1_000n, u: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

export function precisionFactor(precision: string | undefined): bigint {
  if (precision === undefined || precision === '') return 1n;
  const factor = PRECISION[precision];
  if (!factor) throw new IngestError(`Unknown precision "${precision.slice(0, 10)}" (ns, us, ms, s).`);
  return factor;
}

export function parseLineProtocol(text: string): InfluxPoint[] {
  const points: InfluxPoint[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    try {
      points.push(parseLine(line));
    } catch (error) {
      throw new IngestError(`Line ${i + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return points;
}

function parseLine(line: string): InfluxPoint {
  let pos = 0;
  // Reads up to an unescaped stop character; escapes are kept only for the characters the format escapes there.
  const readName = (stops: string, escapable: string): string => {
    let out = '';
    while (pos < line.length && !stops.includes(line[pos])) {
      if (line[pos] === '\\' && pos + 1 < line.length && escapable.includes(line[pos + 1])) {
        out += line[pos + 1];
        pos += 2;
      } else out += line[pos++];
    }
    return out;
  };
  const measurement = readName(', ', ', \\');
  if (measurement === '') throw new Error('missing measurement');
  // Keys are the sender's: a plain object would take a key such as `__proto__` as its prototype and lose it.
  const tags: Record<string, string> = Object.create(null);
  while (line[pos] === ',') {
    pos++;
    const key = readName('=, ', ',= \\');
    if (line[pos] !== '=' || key === '') throw new Error('a tag needs key=value');
    pos++;
    const value = readName(', ', ',= \\');
    if (value === '') throw new Error(`tag "${key}" has no value`);
    tags[key] = value;
  }
  if (line[pos] !== ' ') throw new Error('missing fields');
  while (line[pos] === ' ') pos++;
  const fields: Record<string, InfluxField> = Object.create(null);
  for (;;) {
    const key = readName('=, ', ',= \\');
    if (line[pos] !== '=' || key === '') throw new Error('a field needs key=value');
    pos++;
    if (line[pos] === '"') {
      pos++;
      let value = '';
      let closed = false;
      while (pos < line.length) {
        const c = line[pos++];
        if (c === '\\' && (line[pos] === '"' || line[pos] === '\\')) value += line[pos++];
        else if (c === '"') {
          closed = true;
          break;
        } else value += c;
      }
      if (!closed) throw new Error(`field "${key}" has an unterminated string`);
      fields[key] = { kind: 'string', value };
    } else {
      const start = pos;
      while (pos < line.length && line[pos] !== ',' && line[pos] !== ' ') pos++;
      fields[key] = { kind: 'number', value: fieldNumber(line.slice(start, pos), key) };
    }
    if (line[pos] === ',') {
      pos++;
      continue;
    }
    break;
  }
  let timestamp: bigint | undefined;
  if (line[pos] === ' ') {
    while (line[pos] === ' ') pos++;
    const rest = line.slice(pos).trimEnd();
    if (rest !== '') {
      if (!/^-?\d{1,19}$/.test(rest)) throw new Error('invalid timestamp');
      timestamp = BigInt(rest);
    }
  } else if (pos < line.length) throw new Error('unexpected text after the fields');
  return { measurement, tags, fields, timestamp };
}

function fieldNumber(raw: string, key: string): number {
  if (/^(t|T|true|True|TRUE)$/.test(raw)) return 1;
  if (/^(f|F|false|False|FALSE)$/.test(raw)) return 0;
  if (/^-?\d+i$/.test(raw) || /^\d+u$/.test(raw)) return Number(raw.slice(0, -1));
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  throw new Error(`field "${key}" has an invalid value "${raw.slice(0, 40)}"`);
}

/** Prometheus-style metric and label names from Influx names (invalid characters become '_'). */
export function sanitizeName(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

export function decodeInflux(text: string, precision: string | undefined, nowNs: bigint, batch: Batch): void {
  const factor = precisionFactor(precision);
  for (const point of parseLineProtocol(text)) {
    const ts = point.timestamp === undefined ? nowNs : point.timestamp * factor;
    const tags: Record<string, string> = Object.create(null);
    for (const [key, value] of Object.entries(point.tags)) tags[sanitizeName(key)] = value;
    for (const [field, value] of Object.entries(point.fields)) {
      if (value.kind === 'number') {
        const fingerprint = batch.addSeries('metrics', { ...tags, __name__: sanitizeName(`${point.measurement}_${field}`) });
        batch.addMetric(fingerprint, ts, value.value);
      } else {
        const fingerprint = batch.addSeries('logs', { ...tags, measurement: point.measurement });
        batch.addLog(fingerprint, ts, field === 'message' || field === 'line' ? value.value : `${field}=${JSON.stringify(value.value)}`);
      }
    }
  }
}
