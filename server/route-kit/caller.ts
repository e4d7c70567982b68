import type { IncomingMessage } from 'node:http';
import type { Queryable } from '../db/database';
import type { MembershipRow } from '../db/repositories/memberships-repository';
import type { Viewer } from '../db/repositories/projects-repository';
import type { AccessTokenClaims } from '../identity/verify-access-token';
import { ApiError, badRequest, forbidden } from './http';

/** The signed-in user of a request, in the mode of their token (organization_id null = personal account). */
export interface Caller extends Viewer {
  claims: AccessTokenClaims;
  /** The caller's membership of the token's organization, read once per request; undefined when not a member. */
  membership(): Promise<MembershipRow | undefined>;
}

/** Turns a request's bearer token into its caller (server/api/caller-resolver.ts makes the platform's). */
export interface CallerResolver {
  /** The caller, or null when the request carries no Authorization header (public routes accept that). */
  resolve(req: IncomingMessage, db: Queryable): Promise<Caller | null>;
  /** Forgets the verified tokens of a user at once (account deletion in this process). */
  forgetSubject(sub: string): void;
}

export const unauthorized = (description: string) => new ApiError(401, 'Unauthorized', description);

export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw unauthorized('A bearer access token is required.');
  return caller;
}

/** Organization mode only: the token names an organization and the caller is a member of it. */
export async function requireOrganization(caller: Caller): Promise<MembershipRow & { organization_id: number }> {
  if (caller.organizationId === null) {
    throw badRequest('No organization selected', 'This is only available in organization mode. Switch to an organization first.');
  }
  const membership = await caller.membership();
  if (!membership) throw forbidden('You are not a member of this organization.');
  return membership;
}

/** Read-only members (or a read-only organization) cannot change anything in the organization. */
export async function requireWritable(caller: Caller): Promise<MembershipRow | undefined> {
  if (caller.organizationId === null) return undefined;
  const membership = await requireOrganization(caller);
  if (membership.read_only) throw forbidden('Your access to this organization is read-only. Ask an owner for read-write access.');
  return membership;
}

export async function requireOwner(caller: Caller): Promise<MembershipRow> {
  const membership = await requireOrganization(caller);
  if (!membership.owner) throw forbidden('Only an owner of the organization can do this.');
  return membership;
}
