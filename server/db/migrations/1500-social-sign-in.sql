-- Sign-in through an external OpenID Connect provider (docs/security.md, "Social sign-in").
-- An external identity is the pair (issuer, subject); it belongs to exactly one console account. An account may
-- carry identities of several issuers (a provider that moved, the local stand-in on another port).
CREATE TABLE social_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX social_identities_user_id ON social_identities (user_id);

-- One sign-in started at the provider, per login interaction: the state, nonce and PKCE verifier the callback checks.
-- In the database so that the callback may reach any instance; used once (deleted when the callback arrives).
CREATE TABLE social_sign_in_attempts (
  interaction_uid text PRIMARY KEY,
  state text NOT NULL,
  nonce text NOT NULL,
  code_verifier text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX social_sign_in_attempts_expires_at ON social_sign_in_attempts (expires_at);
