// What /login does for a signed-in user, decided from its query alone (unit-tested).

export type LoginIntent =
  | { type: 'switch'; organizationId: number | null }
  | { type: 'invitation'; path: string }
  | { type: 'home' };

/** What /login should do for a signed-in user, from its query (organization, personalAccount, invitation). */
export function loginIntent(params: URLSearchParams): LoginIntent {
  const organization = params.get('organization');
  if (organization && /^\d+$/.test(organization)) return { type: 'switch', organizationId: Number(organization) };
  if (params.has('personalAccount')) return { type: 'switch', organizationId: null };
  const invitation = params.get('invitation');
  if (invitation) {
    const next = new URLSearchParams(params);
    next.delete('invitation');
    next.set('code', invitation);
    return { type: 'invitation', path: `/invitations?${next.toString()}` };
  }
  return { type: 'home' };
}
