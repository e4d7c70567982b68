// The shell examples of qryn's Data Ingestion pages (spec 001 §2 qryn, "Each example is documentation fed the
// instance url, api key and api secret"), written once here so that the page shows exactly what
// tests/qryn/examples.test.ts runs against the gateway. Pages not listed here (agents' config files) are prose.

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
];
