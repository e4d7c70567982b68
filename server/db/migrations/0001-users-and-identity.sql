-- People who can sign in. Email is unique without regard to case.
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  password_hash text,
  given_name text NOT NULL DEFAULT '',
  family_name text NOT NULL DEFAULT '',
  connection text NOT NULL DEFAULT 'Username-Password-Authentication',
  email_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- The identity server's keys, shared by every instance: the newest row signs, all rows verify.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The identity server's grants, sessions, codes and tokens (one row per stored model instance).
CREATE TABLE oidc_models (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  user_code text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_models_grant_id ON oidc_models (grant_id);
CREATE INDEX oidc_models_uid ON oidc_models (uid);
CREATE INDEX oidc_models_expires_at ON oidc_models (expires_at);

-- Every mail the platform sends, kept so that a developer can read it (the local outbox) and so that SMTP delivery
-- can be retried from any instance.
CREATE TABLE mail_outbox (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
