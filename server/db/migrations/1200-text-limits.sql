-- Maximum lengths of the names people store (issue 16 item 7; the same limits as contract/text-rules.ts, listed in
-- docs/api.md). NOT VALID: rows written before the limits stay readable; every new write is checked.
ALTER TABLE users ADD CONSTRAINT users_given_name_length CHECK (char_length(given_name) <= 100) NOT VALID;
ALTER TABLE users ADD CONSTRAINT users_family_name_length CHECK (char_length(family_name) <= 100) NOT VALID;
ALTER TABLE users ADD CONSTRAINT users_email_length CHECK (char_length(email) <= 254) NOT VALID;
ALTER TABLE projects ADD CONSTRAINT projects_name_length CHECK (char_length(name) <= 64) NOT VALID;
ALTER TABLE organizations ADD CONSTRAINT organizations_name_length CHECK (char_length(name) <= 64) NOT VALID;
ALTER TABLE billing_accounts ADD CONSTRAINT billing_accounts_name_length CHECK (char_length(name) <= 100) NOT VALID;
ALTER TABLE tax_ids ADD CONSTRAINT tax_ids_value_length CHECK (char_length(value) <= 64) NOT VALID;
ALTER TABLE invitations ADD CONSTRAINT invitations_invited_email_length CHECK (char_length(invited_email) <= 254) NOT VALID;
