// The Data Ingestion pages of qryn (spec 001 §2 qryn, Data ingestion): the compatibility table exactly as the spec
// lists it, and one short document per `{group}--{method}`, fed the instance URL, API key and API secret. The
// runnable examples (shell commands and Node.js programs) come from contract/qryn-examples.ts, which the examples
// test runs against the gateway; the agents' configuration files are here (they need the agent itself to run).
import { CODE_EXAMPLES, SHELL_EXAMPLES, type IngestionExampleInput } from '../../../../contract/qryn-examples';

export interface CompatibilityRow {
  solution: string;
  logs: boolean;
  metrics: boolean;
  traces: boolean;
}

export const COMPATIBILITY: CompatibilityRow[] = [
  { solution: 'Grafana Agent', logs: true, metrics: true, traces: true },
  { solution: 'OpenTelemetry', logs: true, metrics: true, traces: true },
  { solution: 'Vector/Datadog', logs: true, metrics: true, traces: false },
  { solution: 'Telegraf/Influx', logs: true, metrics: true, traces: false },
  { solution: 'Logstash/Elastic', logs: true, metrics: true, traces: false },
  { solution: 'paStash', logs: true, metrics: true, traces: false },
  { solution: 'Promtail', logs: true, metrics: false, traces: false },
  { solution: 'Promtail Lambda', logs: true, metrics: false, traces: false },
  { solution: 'Fluentd', logs: true, metrics: false, traces: false },
  { solution: 'Cloudflare Logpush', logs: true, metrics: false, traces: false },
];

/** The table as the browser-built exports name them (spec 001 §7 Other: YourData.csv / YourData.json). */
export function compatibilityCsv(rows: readonly CompatibilityRow[] = COMPATIBILITY): string {
  const yes = (v: boolean) => (v ? 'yes' : 'no');
  return ['Solution,Logs,Metrics,Traces', ...rows.map((r) => `${r.solution},${yes(r.logs)},${yes(r.metrics)},${yes(r.traces)}`)].join('\n') + '\n';
}

export function compatibilityJson(rows: readonly CompatibilityRow[] = COMPATIBILITY): string {
  return JSON.stringify(rows.map((r) => ({ Solution: r.solution, Logs: r.logs, Metrics: r.metrics, Traces: r.traces })), null, 2);
}

export type IngestionBlock =
  | { kind: 'shell'; title: string; text: string }
  | { kind: 'code'; title: string; language: 'javascript'; library: string; text: string }
  | { kind: 'config'; title: string; language: string; text: string };

export interface IngestionPage {
  id: string;
  label: string;
  intro: string;
  /** Configuration files; the runnable examples of the same id are added by ingestionBlocks. */
  configs?: (input: IngestionExampleInput) => { title: string; language: string; text: string }[];
}

export interface IngestionGroup {
  id: 'logs' | 'metrics' | 'telemetry' | 'agents';
  label: string;
  pages: IngestionPage[];
}

const host = (url: string) => url.replace(/^https?:\/\//, '');

export const INGESTION_GROUPS: IngestionGroup[] = [
  {
    id: 'logs',
    label: 'Logs',
    pages: [
      {
        id: 'logs--logql',
        label: 'Grafana Agent',
        intro: 'Grafana Agent (and Promtail) ship log files with the Loki push protocol (protobuf compressed with snappy). Point its Loki client at the instance.',
        configs: (input) => [
          {
            title: 'agent.yaml (static mode)',
            language: 'yaml',
            text: `logs:
  configs:
    - name: default
      clients:
        - url: ${input.url}/loki/api/v1/push
          basic_auth:
            username: ${input.apiKey}
            password: ${input.apiSecret}
      positions:
        filename: /tmp/positions.yaml
      scrape_configs:
        - job_name: varlogs
          static_configs:
            - targets: [localhost]
              labels:
                job: varlogs
                __path__: /var/log/*.log
`,
          },
        ],
      },
      { id: 'logs--elastic', label: 'Elastic', intro: 'Anything that speaks the Elasticsearch bulk API (Logstash, Filebeat, Fluent Bit) can send documents: each becomes one JSON log line in the stream {index="<index>"}.' },
      { id: 'logs--influx', label: 'Influx', intro: 'InfluxDB line protocol string fields become log lines in the stream {measurement="…", tags…}; the field message is stored as the line.' },
      { id: 'logs--curl', label: 'cURL', intro: 'The Loki push API with JSON: labels in stream, and [timestamp in nanoseconds, line] pairs in values.' },
      { id: 'logs--dev', label: 'Developers', intro: 'Log from your application with a Loki client library. This Node.js program uses winston with the winston-loki transport.' },
    ],
  },
  {
    id: 'metrics',
    label: 'Metrics',
    pages: [
      {
        id: 'metrics--prometheus',
        label: 'Prometheus',
        intro: 'Prometheus (and Grafana Agent, Vector, the OpenTelemetry Collector) send samples with remote write. Add the instance to remote_write, or push from code.',
        configs: (input) => [
          {
            title: 'prometheus.yml',
            language: 'yaml',
            text: `remote_write:
  - url: ${input.url}/api/v1/prom/remote/write
    basic_auth:
      username: ${input.apiKey}
      password: ${input.apiSecret}
`,
          },
        ],
      },
      { id: 'metrics--influx', label: 'Influx', intro: 'InfluxDB line protocol numeric and boolean fields become series named <measurement>_<field>, with the tags as labels. Use the /write (v1) or /api/v2/write path.' },
      {
        id: 'metrics--snmp',
        label: 'SNMP',
        intro: 'Telegraf polls SNMP devices and writes line protocol to the instance with its InfluxDB output.',
        configs: (input) => [
          {
            title: 'telegraf.conf',
            language: 'toml',
            text: `[[inputs.snmp]]
  agents = ["udp://192.0.2.10:161"]
  version = 2
  community = "public"

  [[inputs.snmp.field]]
    name = "uptime"
    oid = "RFC1213-MIB::sysUpTime.0"

[[outputs.influxdb]]
  urls = ["${input.url}"]
  skip_database_creation = true
  username = "${input.apiKey}"
  password = "${input.apiSecret}"
`,
          },
        ],
      },
    ],
  },
  {
    id: 'telemetry',
    label: 'Telemetry',
    pages: [
      {
        id: 'telemetry--grafana-agent',
        label: 'Grafana Agent',
        intro: 'Grafana Agent receives OpenTelemetry traces from your applications and forwards them to the instance over OTLP/HTTP.',
        configs: (input) => [
          {
            title: 'agent.yaml (static mode)',
            language: 'yaml',
            text: `traces:
  configs:
    - name: default
      receivers:
        otlp:
          protocols:
            grpc:
            http:
      remote_write:
        - endpoint: ${host(input.url)}
          protocol: http
          format: otlp
          basic_auth:
            username: ${input.apiKey}
            password: ${input.apiSecret}
`,
          },
        ],
      },
      {
        id: 'telemetry--zipkin',
        label: 'Zipkin',
        intro: 'Zipkin reporters send JSON v2 spans to /api/v2/spans; point them at the instance with basic auth.',
        configs: (input) => [
          {
            title: 'OpenTelemetry Collector: zipkin exporter',
            language: 'yaml',
            text: `exporters:
  zipkin:
    endpoint: ${input.url}/api/v2/spans
    headers:
      Authorization: Basic <base64 of ${input.apiKey}:${input.apiSecret}>
`,
          },
        ],
      },
      { id: 'telemetry--curl', label: 'cURL', intro: 'Send a span by hand: Zipkin JSON v2 or OTLP/HTTP JSON.' },
    ],
  },
  {
    id: 'agents',
    label: 'Agents',
    pages: [
      {
        id: 'agents--grafana',
        label: 'Grafana Agent',
        intro: 'One Grafana Agent can send logs, metrics and traces to the instance.',
        configs: (input) => [
          {
            title: 'agent.yaml (static mode)',
            language: 'yaml',
            text: `metrics:
  configs:
    - name: default
      remote_write:
        - url: ${input.url}/api/v1/prom/remote/write
          basic_auth: { username: ${input.apiKey}, password: ${input.apiSecret} }
logs:
  configs:
    - name: default
      clients:
        - url: ${input.url}/loki/api/v1/push
          basic_auth: { username: ${input.apiKey}, password: ${input.apiSecret} }
traces:
  configs:
    - name: default
      receivers: { otlp: { protocols: { http: } } }
      remote_write:
        - endpoint: ${host(input.url)}
          protocol: http
          format: otlp
          basic_auth: { username: ${input.apiKey}, password: ${input.apiSecret} }
`,
          },
        ],
      },
      {
        id: 'agents--vector',
        label: 'Vector',
        intro: 'Vector sends logs with its Loki sink and metrics with its Prometheus remote write sink.',
        configs: (input) => [
          {
            title: 'vector.toml',
            language: 'toml',
            text: `[sinks.qryn_logs]
type = "loki"
inputs = ["my_logs"]
endpoint = "${input.url}"
encoding.codec = "json"
labels.source = "vector"
auth.strategy = "basic"
auth.user = "${input.apiKey}"
auth.password = "${input.apiSecret}"

[sinks.qryn_metrics]
type = "prometheus_remote_write"
inputs = ["my_metrics"]
endpoint = "${input.url}/api/v1/prom/remote/write"
auth.strategy = "basic"
auth.user = "${input.apiKey}"
auth.password = "${input.apiSecret}"
`,
          },
        ],
      },
    ],
  },
];

export const DEFAULT_INGESTION_METHOD = 'logs--logql';
export const INVALID_METHOD_MESSAGE = 'Invalid ingestion method.';
export const INVALID_METHOD_DESCRIPTION = 'Please select a different method from the list above';

export function findIngestionPage(method: string | undefined): { group: IngestionGroup; page: IngestionPage } | null {
  for (const group of INGESTION_GROUPS) {
    const page = group.pages.find((p) => p.id === method);
    if (page) return { group, page };
  }
  return null;
}

/** What a page shows: its configuration files, then its runnable examples, all filled with the instance's values. */
export function ingestionBlocks(page: IngestionPage, input: IngestionExampleInput): IngestionBlock[] {
  return [
    ...(page.configs?.(input) ?? []).map((c) => ({ kind: 'config' as const, ...c })),
    ...SHELL_EXAMPLES.filter((e) => e.id === page.id).map((e) => ({ kind: 'shell' as const, title: e.title, text: e.command(input) })),
    ...CODE_EXAMPLES.filter((e) => e.id === page.id).map((e) => ({ kind: 'code' as const, title: e.title, language: 'javascript' as const, library: e.library, text: e.code(input) })),
  ];
}
