import protobuf from 'protobufjs';

// Tempo's protobuf answer for a trace, written from Tempo's definitions (grafana/tempo pkg/tempopb/tempo.proto:
// `message Trace { repeated tempopb.trace.v1.ResourceSpans resourceSpans = 1; }`, `message TraceByIDResponse
// { Trace trace = 1; TraceByIDMetrics metrics = 2; PartialStatus status = 3; string message = 4; }`; its trace/v1,
// common/v1 and resource/v1 packages are OpenTelemetry's trace.proto, common.proto and resource.proto renamed into
// tempopb.*). Kept apart from the server's encoder so that a test decodes with Tempo's schema, not the server's.

const descriptor = {
  nested: {
    tempopb: {
      nested: {
        Trace: { fields: { resourceSpans: { rule: 'repeated', type: 'tempopb.trace.v1.ResourceSpans', id: 1 } } },
        TraceByIDMetrics: { fields: { inspectedBytes: { type: 'uint64', id: 1 } } },
        TraceByIDResponse: {
          fields: {
            trace: { type: 'Trace', id: 1 },
            metrics: { type: 'TraceByIDMetrics', id: 2 },
            status: { type: 'int32', id: 3 },
            message: { type: 'string', id: 4 },
          },
        },
        common: {
          nested: {
            v1: {
              nested: {
                AnyValue: {
                  oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
                  fields: {
                    stringValue: { type: 'string', id: 1 },
                    boolValue: { type: 'bool', id: 2 },
                    intValue: { type: 'int64', id: 3 },
                    doubleValue: { type: 'double', id: 4 },
                    arrayValue: { type: 'ArrayValue', id: 5 },
                    kvlistValue: { type: 'KeyValueList', id: 6 },
                    bytesValue: { type: 'bytes', id: 7 },
                  },
                },
                ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
                KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
                KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
                InstrumentationScope: {
                  fields: {
                    name: { type: 'string', id: 1 },
                    version: { type: 'string', id: 2 },
                    attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
                    droppedAttributesCount: { type: 'uint32', id: 4 },
                  },
                },
              },
            },
          },
        },
        resource: {
          nested: {
            v1: {
              nested: {
                Resource: {
                  fields: {
                    attributes: { rule: 'repeated', type: 'tempopb.common.v1.KeyValue', id: 1 },
                    droppedAttributesCount: { type: 'uint32', id: 2 },
                  },
                },
              },
            },
          },
        },
        trace: {
          nested: {
            v1: {
              nested: {
                ResourceSpans: {
                  fields: {
                    resource: { type: 'tempopb.resource.v1.Resource', id: 1 },
                    scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
                    schemaUrl: { type: 'string', id: 3 },
                  },
                },
                ScopeSpans: {
                  fields: {
                    scope: { type: 'tempopb.common.v1.InstrumentationScope', id: 1 },
                    spans: { rule: 'repeated', type: 'Span', id: 2 },
                    schemaUrl: { type: 'string', id: 3 },
                  },
                },
                Span: {
                  fields: {
                    traceId: { type: 'bytes', id: 1 },
                    spanId: { type: 'bytes', id: 2 },
                    traceState: { type: 'string', id: 3 },
                    parentSpanId: { type: 'bytes', id: 4 },
                    flags: { type: 'fixed32', id: 16 },
                    name: { type: 'string', id: 5 },
                    kind: { type: 'SpanKind', id: 6 },
                    startTimeUnixNano: { type: 'fixed64', id: 7 },
                    endTimeUnixNano: { type: 'fixed64', id: 8 },
                    attributes: { rule: 'repeated', type: 'tempopb.common.v1.KeyValue', id: 9 },
                    droppedAttributesCount: { type: 'uint32', id: 10 },
                    events: { rule: 'repeated', type: 'Event', id: 11 },
                    droppedEventsCount: { type: 'uint32', id: 12 },
                    droppedLinksCount: { type: 'uint32', id: 14 },
                    status: { type: 'Status', id: 15 },
                  },
                },
                Event: {
                  fields: {
                    timeUnixNano: { type: 'fixed64', id: 1 },
                    name: { type: 'string', id: 2 },
                    attributes: { rule: 'repeated', type: 'tempopb.common.v1.KeyValue', id: 3 },
                    droppedAttributesCount: { type: 'uint32', id: 4 },
                  },
                },
                SpanKind: {
                  values: {
                    SPAN_KIND_UNSPECIFIED: 0, SPAN_KIND_INTERNAL: 1, SPAN_KIND_SERVER: 2, SPAN_KIND_CLIENT: 3, SPAN_KIND_PRODUCER: 4, SPAN_KIND_CONSUMER: 5,
                  },
                },
                Status: {
                  fields: { message: { type: 'string', id: 2 }, code: { type: 'StatusCode', id: 3 } },
                },
                StatusCode: { values: { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 } },
              },
            },
          },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(descriptor);
export const TempoTrace = root.lookupType('tempopb.Trace');
export const TempoTraceByIDResponse = root.lookupType('tempopb.TraceByIDResponse');

/** A decoded message as plain JSON: ids as hex, 64-bit numbers as decimal text, enums by name. */
export function tempoToObject(type: protobuf.Type, bytes: Uint8Array): any {
  const message = type.decode(bytes);
  return JSON.parse(
    JSON.stringify(type.toObject(message, { longs: String, enums: String, bytes: String, defaults: false }), (key, value: unknown) =>
      (key === 'traceId' || key === 'spanId' || key === 'parentSpanId') && typeof value === 'string' ? Buffer.from(value, 'base64').toString('hex') : value,
    ),
  );
}
