-- The subscription of an enabled product (docs/stack.md): a trial ends at trial_ends_at; an active subscription
-- runs in periods that end at period_ends_at, where a cancellation takes effect; released_at records that the
-- product's back end let go of everything it held for the integration (after cancellation), so release runs once.
ALTER TABLE integrations ADD COLUMN period_ends_at timestamptz;
ALTER TABLE integrations ADD COLUMN status_changed_at timestamptz;
ALTER TABLE integrations ADD COLUMN released_at timestamptz;
CREATE INDEX integrations_lifecycle ON integrations (status) WHERE status IN ('trial', 'suspended', 'active', 'scheduled_for_cancellation');
