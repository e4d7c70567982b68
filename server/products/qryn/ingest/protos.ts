import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

// The protobuf schemas come from maintained client packages, decoded with protobufjs (docs/qryn.md):
// - Loki push: winston-loki's generated logproto module (from Loki's logproto.proto).
// - Prometheus remote write: prometheus-remote-write's prom.proto.
// - OTLP traces: @opentelemetry/otlp-proto-exporter-base's generated opentelemetry.proto root.

const require = createRequire(import.meta.url);

interface Decoder {
  decode(reader: Uint8Array): unknown;
}

const loki = require('winston-loki/src/proto/index.js') as { logproto: { PushRequest: Decoder } };
const prom = protobuf.loadSync(require.resolve('prometheus-remote-write/prom.proto'));
const otlp = require('@opentelemetry/otlp-proto-exporter-base/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Decoder & Encoder } } } } };
};

interface Encoder {
  encode(message: unknown): { finish(): Uint8Array };
}

export const LokiPushRequest: Decoder = loki.logproto.PushRequest;
export const PromWriteRequest = prom.lookupType('prometheus.WriteRequest');
export const OtlpTraceRequest: Decoder = otlp.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
/**
 * Encodes OTLP's ExportTraceServiceRequest: `repeated ResourceSpans resource_spans = 1`, which is on the wire exactly
 * Tempo's `tempopb.Trace` (`repeated ResourceSpans resourceSpans = 1`), the trace-by-id answer in protobuf.
 */
export const OtlpTraceEncoder: Encoder = otlp.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** protobufjs' Long (or a number) as a decimal string. */
export function longText(value: unknown): string {
  if (typeof value === 'number') return String(Math.trunc(value));
  if (value && typeof value === 'object' && 'toString' in value) return (value as { toString(): string }).toString();
  return '0';
}
