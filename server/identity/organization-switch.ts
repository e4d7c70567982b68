import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Queryable } from '../db/database';
import { addRefreshTokenField, rawRequestBody, wrapRefreshTokenGrant, type OidcContext } from './oidc-internals';

// Koa context key under which the refresh grant passes the organization of the new tokens to the claim hooks.
const ORGANIZATION = Symbol('organization');

/** The organization the tokens of the request in progress are for (null: personal mode). */
export function organizationOf(ctx: OidcContext | undefined): number | null {
  const value = ctx?.state?.[ORGANIZATION];
  return typeof value === 'number' ? value : null;
}

/**
 * The refresh_token grant takes an extra `organization_id` (form body or query string). The organization is
 * stored on the refresh token and copied to each rotation, so a plain refresh keeps it and two tabs may act as
 * different organizations. Membership is checked BEFORE the built-in handler runs, so a refused switch leaves the
 * presented refresh token unconsumed and usable.
 */
export function installOrganizationSwitch(provider: Provider, db: Queryable): void {
  const RefreshToken = provider.RefreshToken;
  addRefreshTokenField(provider, 'organizationId', (ctx) =>
    ctx.state && ORGANIZATION in ctx.state ? { value: ctx.state[ORGANIZATION] as number | null } : undefined,
  );

  wrapRefreshTokenGrant(
    provider,
    async (ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      // Read from the raw body and query: the provider's parsed params drop empty values, and an empty
      // organization_id is meaningful (back to personal mode).
      const body = rawRequestBody(ctx);
      const fromBody = typeof body.organization_id === 'string' ? body.organization_id : undefined;
      const fromQuery = typeof ctx.query.organization_id === 'string' ? ctx.query.organization_id : undefined;
      const raw = fromBody ?? fromQuery;
      const current = params.refresh_token
        ? await RefreshToken.find(params.refresh_token, { ignoreExpiration: true })
        : undefined;
      // Unknown, foreign or replayed tokens go straight to the built-in handler, which refuses them (and revokes the
      // grant of a replayed one); a membership error must not hide reuse detection.
      if (current && current.clientId === ctx.oidc.client.clientId && !current.consumed && current.isValid) {
        let target: number | null = typeof current.organizationId === 'number' ? current.organizationId : null;
        if (raw !== undefined) target = parseOrganization(raw);
        if (target !== null && !(await isOrganizationMember(db, current.accountId, target))) {
          if (raw !== undefined) {
            throw new errors.CustomOIDCProviderError('invalid_grant', 'You are not a member of this organization.');
          }
          // Removed from the organization since the last refresh: continue in personal mode.
          target = null;
        }
        ctx.state[ORGANIZATION] = target;
      }
    },
    ['organization_id'],
  );
}

function parseOrganization(raw: string): number | null {
  const value = raw.trim();
  if (value === '' || value === 'personal' || value === 'null') return null;
  // Organization ids are PostgreSQL integers: a larger number is no organization (and no database error).
  if (!/^\d+$/.test(value) || Number(value) > 2_147_483_647) {
    throw new errors.CustomOIDCProviderError('invalid_request', 'organization_id must be an organization id or "personal".');
  }
  return Number(value);
}

async function isOrganizationMember(db: Queryable, userId: string, organizationId: number): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM organization_members WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
  ]);
  return rows.length > 0;
}
