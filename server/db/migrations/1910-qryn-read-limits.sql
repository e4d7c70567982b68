-- An instance's own ClickHouse bounds for its reads (docs/qryn.md "Reads of many instances"): each key present
-- replaces the platform's QRYN_READ_MAX_* default for that instance, lower or higher; {} keeps every default.
ALTER TABLE qryn_instances ADD COLUMN read_limits jsonb NOT NULL DEFAULT '{}'::jsonb;
