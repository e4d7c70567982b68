-- Brute-force protection of the login form: failed sign-ins counted per account (the email as typed, lower-cased,
-- so existing and unknown accounts behave alike) and per client address. In the database so that a restart or a
-- second instance does not reset it. subject is 'account:<email>' or 'address:<ip>'.
CREATE TABLE sign_in_failures (
  subject text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  wait_until timestamptz
);
CREATE INDEX sign_in_failures_last_failure_at ON sign_in_failures (last_failure_at);

-- Sessions ended before their tokens expired (password change, refresh token revocation): the API refuses access
-- tokens whose sid is listed until they would have expired anyway.
CREATE TABLE ended_sessions (
  sid text PRIMARY KEY,
  ended_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX ended_sessions_expires_at ON ended_sessions (expires_at);
