-- A personal account's project list (organization_id IS NULL AND user_id = $1) is read on every personal-mode
-- request for projects; without this it scans every project of every organization.
CREATE INDEX projects_personal_user ON projects (user_id) WHERE organization_id IS NULL;
