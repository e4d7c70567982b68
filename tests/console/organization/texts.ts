// The spec's organization-name messages (000 section 5) per sample name of the create-organization model.
export const ORGANIZATION_LENGTH_OR_PATTERN: Record<string, string> = {
  ab: 'Must be at least 3 characters',
  'Acme!': 'Organization name must match A-z 0-9 -_',
};
