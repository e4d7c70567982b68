import { Schema } from 'effect';

// The console's telemetry batches (sent every 250 ms or 50 items, spec 000 §1). The collector keeps counts per
// event name and day; properties are accepted but not stored.

export const TELEMETRY_MAX_BATCH = 50;

export const TelemetryEvent = Schema.Struct({
  name: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  timestamp: Schema.optionalKey(Schema.Number),
  properties: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
});
export type TelemetryEvent = typeof TelemetryEvent.Type;

export const TelemetryBatch = Schema.Struct({
  events: Schema.Array(TelemetryEvent).pipe(Schema.check(Schema.isMaxLength(TELEMETRY_MAX_BATCH))),
});
export type TelemetryBatch = typeof TelemetryBatch.Type;

export const TelemetryResponse = Schema.Struct({ message: Schema.String, accepted: Schema.Number });
