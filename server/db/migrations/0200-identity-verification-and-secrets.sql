-- Single-use email verification links. Only a hash of the token is stored, so a database read does not hand out
-- working links; used_at makes a link single-use, expires_at bounds how long a leaked mail stays dangerous.
CREATE TABLE email_verification_tokens (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verification_tokens_user ON email_verification_tokens (user_id);

-- Secrets the identity server needs to be identical on every instance and across restarts (cookie signing keys),
-- created once by the first instance that starts.
CREATE TABLE identity_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
