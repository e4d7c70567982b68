-- Billing accounts pay for an organization or a personal account. Names are unique per owner, without regard
-- to case: the create-organization wizard refuses a name that is already used for one of the user's accounts.
CREATE TABLE billing_accounts (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  is_default boolean NOT NULL DEFAULT false,
  customer_ref text,
  payment_method_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX billing_accounts_owner_name_key ON billing_accounts (owner_user_id, lower(name));

CREATE TABLE organizations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  read_only boolean NOT NULL DEFAULT false,
  billing_account_id integer REFERENCES billing_accounts (id),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  trial_ends_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Membership is what the identity server checks before it issues tokens scoped to an organization.
CREATE TABLE organization_members (
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  owner boolean NOT NULL DEFAULT false,
  read_only boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_members_user ON organization_members (user_id);

-- A project belongs to an organization, or (organization_id null) to its creator's personal account.
CREATE TABLE projects (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  organization_id integer REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  billing_account_id integer REFERENCES billing_accounts (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_organization ON projects (organization_id);

CREATE TABLE project_members (
  project_id integer NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_members_user ON project_members (user_id);

-- An invitation grants exactly what it names: the organization, read-only or not, and (when set) only these projects.
CREATE TABLE invitations (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  invited_email text NOT NULL,
  inviting_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  read_only boolean NOT NULL DEFAULT false,
  project_ids integer[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX invitations_organization ON invitations (organization_id);
