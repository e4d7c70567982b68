import type { IncomingMessage } from 'node:http';
import type { Queryable } from '../../../db/database';
import { findVisibleProject, type Viewer } from '../../../db/repositories/projects-repository';
import { HttpError, type Access, type Scope } from '../http/gateway-http';
import type { QrynInstanceRow } from '../instances/qryn-repository';

// The console's sign-in as a gateway credential (docs/qryn.md "Authentication"): a signed-in member explores the
// project's instance with the access token the console already holds, as in Grafana, and no instance key or token
// has to be made first. The member's role decides: every member of the project (read-only ones included) may read;
// writing needs a member who may change the project. The token's account must be the project's: an organization's
// project is read in that organization's mode (the console switches to it when it opens the project).


export const NOT_A_MEMBER_MESSAGE = 'This sign-in is not a member of the project that owns this instance.';

/**
 * `instance` is looked up only once the token is known good, and a missing instance is refused as another account's
 * is, so that neither an invalid token nor a member of another account can tell an instance id that exists.
 */
export type SessionAuthenticator = (req: IncomingMessage, instance: () => Promise<QrynInstanceRow | undefined>) => Promise<Access>;

/**
 * The signed-in caller of a request, as the API's caller resolver reads it (given at composition, so the gateway
 * imports no API module): undefined without a token; an HttpError 401 or 403 for a token that is refused.
 */
export interface SessionCaller extends Viewer {
  /** The caller's membership of the token's organization; undefined when not a member. */
  membership(): Promise<{ read_only: boolean } | undefined>;
}
export type ResolveSessionCaller = (req: IncomingMessage) => Promise<SessionCaller | undefined>;

export function sessionAuthenticator(deps: { db: Queryable; resolveCaller: ResolveSessionCaller }): SessionAuthenticator {
  return async (req, findInstance) => {
    const caller = await deps.resolveCaller(req);
    if (!caller) throw new HttpError(401, 'Authentication is required: basic auth with the API key and secret, or a token.');
    const instance = await findInstance();
    if (!instance) throw new HttpError(403, NOT_A_MEMBER_MESSAGE);
    const membership = caller.organizationId === null ? undefined : await caller.membership();
    if (caller.organizationId !== null && !membership) throw new HttpError(403, NOT_A_MEMBER_MESSAGE);
    const project = await findVisibleProject(deps.db, caller, instance.project_id);
    if (!project) throw new HttpError(403, NOT_A_MEMBER_MESSAGE);
    const scopes = new Set<Scope>(['read']);
    if (!membership?.read_only) scopes.add('write');
    return { instance, scopes };
  };
}
