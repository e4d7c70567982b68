-- Invitation mails per address (creations and re-sends), so that one address cannot be flooded with invitations;
-- rows older than the limit's window are deleted as new mails are counted.
CREATE TABLE invitation_mails (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitation_mails_email ON invitation_mails (email, sent_at);
