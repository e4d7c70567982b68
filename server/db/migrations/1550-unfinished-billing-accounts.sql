-- Billing accounts the create-organization wizard opens for an organization it has not created yet. One that no
-- organization uses is "unfinished": its owner may resume it from any browser, and a recurring job removes it after
-- UNFINISHED_BILLING_ACCOUNT_DAYS (docs/organizations.md). Accounts made before this column were not marked, so
-- they are never offered nor removed.
ALTER TABLE billing_accounts ADD COLUMN for_organization boolean NOT NULL DEFAULT false;
UPDATE billing_accounts b SET for_organization = true WHERE EXISTS (SELECT 1 FROM organizations o WHERE o.billing_account_id = b.id);
CREATE INDEX billing_accounts_unfinished ON billing_accounts (created_at) WHERE for_organization;
