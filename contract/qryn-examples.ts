// The runnable examples of qryn's Data Ingestion pages (spec 001 §2 qryn, "Each example is documentation fed the
// instance url, api key and api secret"), written once here so that the page shows exactly what
// tests/qryn/examples.test.ts runs against the gateway: shell commands (run by bash) and Node.js programs (run by
// node with the client library they import). The agents' configuration files of the other pages are in
// src/views/stack/qryn/ingestion-pages.ts: they need the agent itself to run.

export interface IngestionExampleInput {
  url: string;
  apiKey: string;
  apiSecret: string;
}

export interface ShellExample {
  /** `{group}--{method}` of the Data Ingestion route. */
  id: string;
  title: string;
  /** What the data looks like once stored: the LogQL or PromQL selector that reads it back. */
  check: { kind: 'logs' | 'metrics' | 'traces'; query: string };
  command: (input: IngestionExampleInput) => string;
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
const auth = (input: IngestionExampleInput) => `-u ${quote(`${input.apiKey}:${input.apiSecret}`)}`;

export const SHELL_EXAMPLES: ShellExample[] = [
  {
    id: 'logs--curl',
    title: 'Push a log line with curl (Loki JSON)',
    check: { kind: 'logs', query: '{job="curl-example"}' },
    command: (input) =>
      `curl -sS --fail-with-body ${auth(input)} -H 'Content-Type: application/json' ${quote(`${input.url}/loki/api/v1/push`)} ` +
      `--data-raw "{\\"streams\\":[{\\"stream\\":{\\"job\\":\\"curl-example\\",\\"level\\":\\"info\\"},\\"values\\":[[\\"$(date +%s%N)\\",\\"Hello from curl\\"]]}]}"`,
  },
  {
    id: 'logs--elastic',
    title: 'Send documents with the Elasticsearch bulk API',
    check: { kind: 'logs', query: '{index="elastic-example"}' },
    command: (input) =>
      `printf '%s\\n' '{"index":{"_index":"elastic-example"}}' '{"message":"Hello from the bulk API","level":"info"}' | ` +
      `curl -sS --fail-with-body ${auth(input)} -H 'Content-Type: application/x-ndjson' ${quote(`${input.url}/_bulk`)} --data-binary @-`,
  },
  {
    id: 'logs--influx',
    title: 'Write a log line with the InfluxDB line protocol',
    check: { kind: 'logs', query: '{measurement="syslog"}' },
    command: (input) =>
      `curl -sS --fail-with-body ${auth(input)} ${quote(`${input.url}/write`)} --data-binary 'syslog,host=web-1 message="Hello from Influx line protocol"'`,
  },
  {
    id: 'metrics--influx',
    title: 'Write a metric with the InfluxDB line protocol',
    check: { kind: 'metrics', query: 'cpu_usage_user{host="web-1"}' },
    command: (input) => `curl -sS --fail-with-body ${auth(input)} ${quote(`${input.url}/write`)} --data-binary 'cpu,host=web-1 usage_user=12.5'`,
  },
  {
    id: 'telemetry--curl',
    title: 'Send a span with curl (Zipkin JSON v2)',
    check: { kind: 'traces', query: 'curl-example' },
    command: (input) =>
      `curl -sS --fail-with-body ${auth(input)} -H 'Content-Type: application/json' ${quote(`${input.url}/api/v2/spans`)} ` +
      `--data-raw "[{\\"traceId\\":\\"$(od -An -tx1 -N16 /dev/urandom | tr -d ' \\n')\\",\\"id\\":\\"$(od -An -tx1 -N8 /dev/urandom | tr -d ' \\n')\\",\\"name\\":\\"hello\\",\\"timestamp\\":$(($(date +%s%N)/1000)),\\"duration\\":1500,\\"localEndpoint\\":{\\"serviceName\\":\\"curl-example\\"}}]"`,
  },
  // OTLP/HTTP JSON with curl, the second example of telemetry--curl.
  {
    id: 'telemetry--curl',
    title: 'Send a span with curl (OTLP/HTTP JSON)',
    check: { kind: 'traces', query: 'otlp-curl-example' },
    command: (input) =>
      `curl -sS --fail-with-body ${auth(input)} -H 'Content-Type: application/json' ${quote(`${input.url}/v1/traces`)} ` +
      `--data-raw "{\\"resourceSpans\\":[{\\"resource\\":{\\"attributes\\":[{\\"key\\":\\"service.name\\",\\"value\\":{\\"stringValue\\":\\"otlp-curl-example\\"}}]},\\"scopeSpans\\":[{\\"spans\\":[{\\"traceId\\":\\"$(od -An -tx1 -N16 /dev/urandom | tr -d ' \\n')\\",\\"spanId\\":\\"$(od -An -tx1 -N8 /dev/urandom | tr -d ' \\n')\\",\\"name\\":\\"hello\\",\\"kind\\":2,\\"startTimeUnixNano\\":\\"$(date +%s%N)\\",\\"endTimeUnixNano\\":\\"$(date +%s%N)\\"}]}]}]}"`,
  },
];

export interface CodeExample {
  /** `{group}--{method}` of the Data Ingestion route. */
  id: string;
  title: string;
  /** The npm package the program uses. */
  library: string;
  check: ShellExample['check'];
  /** An ES module for Node.js 20 (top-level await), run as `node --input-type=module`. */
  code: (input: IngestionExampleInput) => string;
}

const js = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export const CODE_EXAMPLES: CodeExample[] = [
  {
    id: 'logs--dev',
    title: 'Log from Node.js with winston-loki',
    library: 'winston-loki',
    check: { kind: 'logs', query: '{app="node-example"}' },
    code: (input) => `import winston from 'winston';
import LokiTransport from 'winston-loki';

const transport = new LokiTransport({
  host: ${js(input.url)},
  basicAuth: ${js(`${input.apiKey}:${input.apiSecret}`)},
  labels: { app: 'node-example' },
  json: true,
  batching: false,
  onConnectionError: (error) => console.error(error),
});
const logger = winston.createLogger({ transports: [transport] });
logger.info('Hello from winston-loki');
// The transport sends in the background: give it a moment before the program ends.
setTimeout(() => logger.close(), 1000);
`,
  },
  {
    id: 'metrics--prometheus',
    title: 'Push a sample from Node.js with prometheus-remote-write',
    library: 'prometheus-remote-write',
    check: { kind: 'metrics', query: 'example_requests_total{job="node-example"}' },
    code: (input) => `import { pushTimeseries } from 'prometheus-remote-write';

const result = await pushTimeseries(
  { labels: { __name__: 'example_requests_total', job: 'node-example' }, samples: [{ value: 42, timestamp: Date.now() }] },
  { url: ${js(`${input.url}/api/v1/prom/remote/write`)}, auth: { username: ${js(input.apiKey)}, password: ${js(input.apiSecret)} }, fetch },
);
if (result.status !== 204) throw new Error(\`remote write answered \${result.status} \${result.statusText}\`);
`,
  },
  {
    id: 'metrics--influx',
    title: 'Write a point with the official InfluxDB client for Node.js',
    library: '@influxdata/influxdb-client',
    check: { kind: 'metrics', query: 'memory_used_percent{host="web-1"}' },
    code: (input) => `import { InfluxDB, Point } from '@influxdata/influxdb-client';

// The token is the API key and secret joined by a colon; the organization and bucket are not used by qryn.
const writeApi = new InfluxDB({ url: ${js(input.url)}, token: ${js(`${input.apiKey}:${input.apiSecret}`)} }).getWriteApi('org', 'bucket', 'ms');
writeApi.writePoint(new Point('memory').tag('host', 'web-1').floatField('used_percent', 61.5));
await writeApi.close();
`,
  },
];
