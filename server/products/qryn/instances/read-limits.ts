// An instance's own read limits, stored with the instance (read_limits): each replaces the platform's QRYN_READ_MAX_*
// default for that instance's reads (query/read-settings.ts applies them).

/** The ClickHouse bounds an instance's own limits may set instead of the platform's. */
export const INSTANCE_LIMIT_KEYS = ['maxExecutionTimeS', 'maxRowsToRead', 'maxBytesToRead', 'maxMemoryUsage', 'maxThreads', 'maxResultRows'] as const;
export type InstanceLimitKey = (typeof INSTANCE_LIMIT_KEYS)[number];
export type InstanceReadLimits = Partial<Record<InstanceLimitKey, number>>;
