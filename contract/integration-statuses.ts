// The statuses of an enabled product (spec 001 §3), kept apart from the schemas so the console's first reads can check
// them without loading the schema library.
export const INTEGRATION_STATUSES = ['trial', 'active', 'suspended', 'cancelled_by_user', 'scheduled_for_cancellation'] as const;
