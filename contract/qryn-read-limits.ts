import { Schema } from 'effect';

// An instance's own ClickHouse bounds for its reads (docs/qryn.md "Reads of many instances"): each one set replaces
// the platform's QRYN_READ_MAX_* default for that instance, within it (an instance may tighten the shared storage's
// bounds, never loosen them); null keeps the default. Read by the
// project's members, set by an owner of the organization (a personal project's owner).

export const READ_LIMITS_UPDATED_MESSAGE = 'The read limits have been updated.';

/** A limit past the platform's own (or 0, no bound, where the platform has one). */
export const readLimitOverPlatform = (bound: number) => `Must be between 1 and ${bound.toLocaleString('en-US')}, the platform's limit.`;

/** The limits' names as the API and ClickHouse name them, with their bounds (0: no bound, where ClickHouse allows it). */
export const READ_LIMIT_FIELDS = {
  max_execution_time: { label: 'Execution time (s)', min: 1, max: 86_400 },
  max_rows_to_read: { label: 'Rows to read', min: 0, max: 1_000_000_000_000 },
  max_bytes_to_read: { label: 'Bytes to read', min: 0, max: 1_000_000_000_000_000 },
  max_memory_usage: { label: 'Memory per read (bytes)', min: 0, max: 1_000_000_000_000 },
  max_threads: { label: 'Threads per read', min: 0, max: 256 },
  max_result_rows: { label: 'Result rows', min: 0, max: 1_000_000_000_000 },
} as const;
export type ReadLimitField = keyof typeof READ_LIMIT_FIELDS;
export const READ_LIMIT_NAMES = Object.keys(READ_LIMIT_FIELDS) as ReadLimitField[];

const limit = (field: ReadLimitField) => {
  const { min, max } = READ_LIMIT_FIELDS[field];
  return Schema.NullOr(
    Schema.Number.pipe(
      Schema.check(
        Schema.makeFilter((n: number) => Number.isInteger(n) || 'Must be a whole number.'),
        Schema.isGreaterThanOrEqualTo(min, { message: min === 0 ? 'Must not be negative (0: no bound).' : `Must be at least ${min}.` }),
        Schema.isLessThanOrEqualTo(max, { message: `Must be at most ${max.toLocaleString('en-US')}.` }),
      ),
    ),
  );
};

/** The instance's own limits: null where the platform's default applies. */
export const ReadLimits = Schema.Struct({
  max_execution_time: limit('max_execution_time'),
  max_rows_to_read: limit('max_rows_to_read'),
  max_bytes_to_read: limit('max_bytes_to_read'),
  max_memory_usage: limit('max_memory_usage'),
  max_threads: limit('max_threads'),
  max_result_rows: limit('max_result_rows'),
});
export type ReadLimits = typeof ReadLimits.Type;

/** PUT integrations/qryn/read-limits?project_id: every limit, null for the platform's default. */
export const UpdateReadLimitsBody = ReadLimits;

const Defaults = Schema.Struct({
  max_execution_time: Schema.Number,
  max_rows_to_read: Schema.Number,
  max_bytes_to_read: Schema.Number,
  max_memory_usage: Schema.Number,
  max_threads: Schema.Number,
  max_result_rows: Schema.Number,
});

/** GET integrations/qryn/read-limits?project_id */
export const QrynReadLimits = Schema.Struct({
  limits: ReadLimits,
  /** The platform's defaults (QRYN_READ_MAX_*). */
  defaults: Defaults,
  /** What the instance's reads carry: its own limit where set, else the default. */
  effective: Defaults,
  /** Whether the caller may change them (an owner). */
  can_edit: Schema.Boolean,
});
export type QrynReadLimits = typeof QrynReadLimits.Type;

export const UpdateReadLimitsResponse = Schema.Struct({ message: Schema.String, read_limits: QrynReadLimits });
