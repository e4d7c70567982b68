import { Batch, IngestError, isRecord, type SpanRecord } from './batch';
import { OtlpTraceRequest, longText } from './protos';

// Traces: Zipkin JSON v2 (POST /api/v2/spans, /tempo/api/push) and OTLP/HTTP (POST /v1/traces) in JSON or protobuf.

const hex = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]+$/.test(value)) throw new IngestError(`${what} must be hexadecimal text.`);
  return value.toLowerCase();
};

const micros = (value: unknown, what: string): bigint => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new IngestError(`${what} must be whole microseconds.`);
  return BigInt(value) * 1_000n;
};

export function decodeZipkin(body: unknown, batch: Batch): void {
  if (!Array.isArray(body)) throw new IngestError('The body must be a JSON array of Zipkin v2 spans.');
  for (const span of body) {
    if (!isRecord(span)) throw new IngestError('Each span must be an object.');
    const tags = span.tags ?? {};
    if (!isRecord(tags) || Object.values(tags).some((v) => typeof v !== 'string')) throw new IngestError('Span tags must be an object of strings.');
    const local = span.localEndpoint;
    if (local !== undefined && !isRecord(local)) throw new IngestError('localEndpoint must be an object.');
    if (span.name !== undefined && typeof span.name !== 'string') throw new IngestError('A span name must be text.');
    if (span.kind !== undefined && !['CLIENT', 'SERVER', 'PRODUCER', 'CONSUMER'].includes(span.kind as string)) throw new IngestError('Unknown span kind.');
    checkAnnotations(span.annotations);
    const record: SpanRecord = {
      traceId: hex(span.traceId, 'traceId').padStart(32, '0'),
      spanId: hex(span.id, 'id'),
      parentId: span.parentId === undefined ? '' : hex(span.parentId, 'parentId'),
      name: (span.name as string | undefined) ?? '',
      serviceName: typeof local?.serviceName === 'string' ? local.serviceName : '',
      kind: (span.kind as string | undefined) ?? '',
      timestampNs: micros(span.timestamp, 'timestamp'),
      durationNs: span.duration === undefined ? 0n : micros(span.duration, 'duration'),
      statusCode: tags.error !== undefined ? 2 : 0,
      attributes: Object.entries(tags as Record<string, string>),
      attributeTypes: Object.keys(tags).map(() => 's'),
      // As OpenTelemetry's Zipkin receiver does: the local endpoint's service is the resource's service.name.
      resourceAttributes: typeof local?.serviceName === 'string' ? [['service.name', local.serviceName]] : [],
      resourceTypes: typeof local?.serviceName === 'string' ? ['s'] : [],
      source: 'zipkin',
      payload: JSON.stringify(span),
    };
    batch.addSpan(record);
  }
}

/**
 * Zipkin annotations (the span's events: `{timestamp: µs, value}`) stay in the stored span (payload), which the trace
 * read turns into OTLP events; checked here so that a malformed one is refused at the push, not skipped at a read.
 */
function checkAnnotations(annotations: unknown): void {
  if (annotations === undefined || annotations === null) return;
  if (!Array.isArray(annotations)) throw new IngestError('annotations must be an array.');
  for (const annotation of annotations) {
    if (!isRecord(annotation)) throw new IngestError('Each annotation must be an object.');
    micros(annotation.timestamp, 'annotations[].timestamp');
    if (typeof annotation.value !== 'string') throw new IngestError('annotations[].value must be text.');
  }
}

/** OTLP span events, kept in the stored span like Zipkin's annotations; checked for the same reason. */
function checkEvents(events: unknown): void {
  if (events === undefined || events === null) return;
  if (!Array.isArray(events)) throw new IngestError('events must be an array.');
  for (const event of events) {
    if (!isRecord(event)) throw new IngestError('Each span event must be an object.');
    nanos(event.timeUnixNano, 'events[].timeUnixNano');
    if (event.name !== undefined && event.name !== null && typeof event.name !== 'string') throw new IngestError('events[].name must be text.');
    attributes(event.attributes);
  }
}

const OTLP_KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

/** An OTLP AnyValue (JSON or decoded protobuf) as text. */
export function anyValueText(value: unknown): string {
  if (!isRecord(value)) return '';
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (value.boolValue !== undefined && value.boolValue !== null) return String(value.boolValue);
  // OTLP/JSON writes int64 as decimal text (as does a decoded protobuf kept as JSON); protobuf decodes it as a Long.
  if (typeof value.intValue === 'string') return value.intValue;
  if (value.intValue !== undefined && value.intValue !== null) return longText(value.intValue);
  if (value.doubleValue !== undefined && value.doubleValue !== null) return String(value.doubleValue);
  if (isRecord(value.arrayValue)) return JSON.stringify(((value.arrayValue.values as unknown[]) ?? []).map(anyValueText));
  return '';
}

/** The OTLP type of an AnyValue, as the spans table keeps it next to the value's text. */
export function anyValueType(value: unknown): string {
  if (!isRecord(value)) return 's';
  if (value.stringValue !== undefined && value.stringValue !== null) return 's';
  if (value.boolValue !== undefined && value.boolValue !== null) return 'b';
  if (value.intValue !== undefined && value.intValue !== null) return 'i';
  if (value.doubleValue !== undefined && value.doubleValue !== null) return 'd';
  // An array's type carries its elements' types after the `a`, one letter each ('aiis': two ints and a string).
  if (isRecord(value.arrayValue)) return `a${(Array.isArray(value.arrayValue.values) ? value.arrayValue.values : []).map((e) => anyValueType(e)[0]).join('')}`;
  if (isRecord(value.kvlistValue)) return 'k';
  return 's';
}

function attributeTypes(list: unknown): string[] {
  return Array.isArray(list) ? list.map((a) => anyValueType(isRecord(a) ? a.value : undefined)) : [];
}

function attributes(list: unknown): [string, string][] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new IngestError('attributes must be an array.');
  return list.map((a) => {
    if (!isRecord(a) || typeof a.key !== 'string') throw new IngestError('Each attribute needs a key.');
    return [a.key, anyValueText(a.value)];
  });
}

function nanos(value: unknown, what: string): bigint {
  const text = typeof value === 'string' ? value : value !== undefined && value !== null ? longText(value) : '';
  if (!/^\d{1,20}$/.test(text)) throw new IngestError(`${what} must be nanoseconds.`);
  return BigInt(text);
}

/** Trace and span ids: hex text in OTLP/JSON, bytes in protobuf. */
function idText(value: unknown, what: string, optional = false): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if ((value === undefined || value === '' || value === null) && optional) return '';
  return hex(value, what);
}

export function decodeOtlp(body: unknown, batch: Batch): void {
  if (!isRecord(body) || !Array.isArray(body.resourceSpans)) throw new IngestError('The body must be an OTLP ExportTraceServiceRequest with resourceSpans.');
  for (const resourceSpans of body.resourceSpans) {
    if (!isRecord(resourceSpans)) throw new IngestError('Each resourceSpans must be an object.');
    const resource = resourceSpans.resource;
    const resourceAttributes = isRecord(resource) ? attributes(resource.attributes) : [];
    const resourceTypes = isRecord(resource) ? attributeTypes(resource.attributes) : [];
    const serviceName = resourceAttributes.find(([k]) => k === 'service.name')?.[1] ?? '';
    const scopes = resourceSpans.scopeSpans ?? resourceSpans.instrumentationLibrarySpans ?? [];
    if (!Array.isArray(scopes)) throw new IngestError('scopeSpans must be an array.');
    for (const scope of scopes) {
      if (!isRecord(scope) || (scope.spans !== undefined && !Array.isArray(scope.spans))) throw new IngestError('Each scopeSpans needs a spans array.');
      const instrumentation = isRecord(scope.scope) ? scope.scope : isRecord(scope.instrumentationLibrary) ? scope.instrumentationLibrary : {};
      const scopeName = typeof instrumentation.name === 'string' ? instrumentation.name : '';
      const scopeVersion = typeof instrumentation.version === 'string' ? instrumentation.version : '';
      const scopeAttributes = attributes(instrumentation.attributes);
      const scopeTypes = attributeTypes(instrumentation.attributes);
      for (const span of (scope.spans as unknown[]) ?? []) {
        if (!isRecord(span)) throw new IngestError('Each span must be an object.');
        const start = nanos(span.startTimeUnixNano, 'startTimeUnixNano');
        const end = nanos(span.endTimeUnixNano ?? span.startTimeUnixNano, 'endTimeUnixNano');
        const kind = typeof span.kind === 'number' ? OTLP_KINDS[span.kind] : typeof span.kind === 'string' ? span.kind.replace(/^SPAN_KIND_/, '') : 'UNSPECIFIED';
        if (kind === undefined || !OTLP_KINDS.includes(kind)) throw new IngestError('Unknown span kind.');
        if (span.name !== undefined && span.name !== null && typeof span.name !== 'string') throw new IngestError('A span name must be text.');
        const status = isRecord(span.status) ? span.status : {};
        const code = typeof status.code === 'number' ? status.code : status.code === 'STATUS_CODE_ERROR' ? 2 : status.code === 'STATUS_CODE_OK' ? 1 : 0;
        const spanAttributes = attributes(span.attributes);
        checkEvents(span.events);
        batch.addSpan({
          traceId: idText(span.traceId, 'traceId'),
          spanId: idText(span.spanId, 'spanId'),
          parentId: idText(span.parentSpanId, 'parentSpanId', true),
          name: (span.name as string | undefined) ?? '',
          serviceName,
          kind,
          timestampNs: start,
          durationNs: end - start,
          statusCode: code,
          attributes: spanAttributes,
          resourceAttributes,
          attributeTypes: attributeTypes(span.attributes),
          resourceTypes,
          scopeName,
          scopeVersion,
          scopeAttributes,
          scopeTypes,
          source: 'otlp',
          payload: JSON.stringify(span, (_key, value: unknown) =>
            value instanceof Uint8Array ? Buffer.from(value).toString('hex') : typeof value === 'bigint' ? value.toString() : isLong(value) ? longText(value) : value,
          ),
        });
      }
    }
  }
}

function isLong(value: unknown): boolean {
  return isRecord(value) && typeof value.low === 'number' && typeof value.high === 'number' && typeof value.unsigned === 'boolean';
}

export function decodeOtlpProto(bytes: Uint8Array, batch: Batch): void {
  let message: unknown;
  try {
    message = OtlpTraceRequest.decode(bytes);
  } catch (error) {
    throw new IngestError(`The body is not an OTLP ExportTraceServiceRequest: ${error instanceof Error ? error.message : String(error)}`);
  }
  decodeOtlp({ resourceSpans: [], ...(message as Record<string, unknown>) }, batch);
}
