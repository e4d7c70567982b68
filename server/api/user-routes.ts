import { ErrorText } from '../../contract/errors';
import { REAUTHENTICATION_REQUIRED } from '../../contract/users';
import { PROFILE_UNCHANGED, UpdatePasswordBody, UpdateProfileBody } from '../../contract/users';
import { sendVerificationEmail } from '../identity/email-verification';
import { endSessionsOfAccount } from '../identity/session-revocation';
import { detachBillingAccountsOfOwner, listOpenInvoicesOfOwner } from '../db/repositories/billing-repository';
import {
  deleteSolelyOwnedOrganizations,
  handOverCreatedProjects,
  listMemberOrganizations,
  listProjectsDeletedWithAccount,
  listSolelyOwnedOrganizationsWithMembers,
} from '../db/repositories/organizations-repository';
import { releaseProjectIntegrations } from './project-release';
import { PASSWORD_CONNECTION, deleteUser, findUserById, updateUserPassword, updateUserProfile, type UserRow } from '../db/repositories/users-repository';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, type Caller } from '../route-kit/caller';
import { ApiError, badRequest, decodeOrThrow, forbidden, readBody, sendJson } from '../route-kit/http';

async function currentUser(ctx: ApiContext, caller: Caller): Promise<UserRow> {
  const user = await findUserById(ctx.db, caller.userId);
  if (!user) throw new ApiError(401, 'Unauthorized', 'Your account no longer exists.');
  return user;
}

function requirePasswordAccount(user: UserRow): void {
  if (user.connection !== PASSWORD_CONNECTION) {
    throw forbidden('Your account signs in with an external provider; change your profile and password there.');
  }
}

/**
 * Like Keycloak's account console, a password change needs a sign-in of the last few minutes (the token's
 * auth_time): a token taken from an unlocked screen hours later cannot lock the owner out. 401 with a reason the
 * console recognises: it sends the user through the login page (prompt=login) and back to the form.
 */
function requireRecentSignIn(caller: Caller, maxAgeSeconds: number): void {
  const authTime = caller.claims.auth_time;
  const age = typeof authTime === 'number' ? Math.floor(Date.now() / 1000) - authTime : Number.POSITIVE_INFINITY;
  if (age > maxAgeSeconds) {
    throw new ApiError(401, REAUTHENTICATION_REQUIRED, 'For your security, please sign in again to change your password.', {
      reason: 'reauthentication_required',
      max_age: maxAgeSeconds,
    });
  }
}

export function registerUserRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add('GET', 'users/organizations', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    sendJson(res, 200, await listMemberOrganizations(ctx.db, caller.userId));
  });

  router.add('PATCH', 'users', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdateProfileBody, await readBody(req));
    const user = await currentUser(ctx, caller);
    requirePasswordAccount(user);
    if (user.given_name === body.given_name && user.family_name === body.family_name) {
      throw badRequest(PROFILE_UNCHANGED, 'The first and last name are the same as before.');
    }
    const updated = (await updateUserProfile(ctx.db, user.id, body.given_name, body.family_name))!;
    sendJson(res, 200, {
      message: 'Your profile has been updated.',
      user: {
        id: updated.id,
        email: updated.email,
        given_name: updated.given_name,
        family_name: updated.family_name,
        name: `${updated.given_name} ${updated.family_name}`.trim(),
        email_verified: updated.email_verified,
        connection: updated.connection,
      },
    });
  });

  router.add('PATCH', 'users/password', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(UpdatePasswordBody, await readBody(req));
    const user = await currentUser(ctx, caller);
    requirePasswordAccount(user);
    requireRecentSignIn(caller, ctx.config.reauthenticationMaxAgeSeconds);
    await ctx.db.transaction(async (tx) => {
      await updateUserPassword(tx, user.id, body.password);
      // The other browsers are signed out (sessions, refresh tokens and access tokens); the session that asked stays.
      await endSessionsOfAccount(tx, user.id, caller.claims.sid ?? null, ctx.config.accessTokenTtlSeconds);
    });
    sendJson(res, 200, { message: 'Your password has been updated.' });
  });

  router.add('POST', 'users/resend-verification', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const user = await currentUser(ctx, caller);
    if (user.email_verified) {
      sendJson(res, 200, { message: 'Your email address is already verified.' });
      return;
    }
    await sendVerificationEmail({ db: ctx.db, mailer: ctx.mailer, config: ctx.config }, user);
    sendJson(res, 200, { message: `A new verification email has been sent to ${user.email}.` });
  });

  router.add('DELETE', 'users', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const user = await currentUser(ctx, caller);
    const open = await listOpenInvoicesOfOwner(ctx.db, user.id);
    if (open.length > 0) {
      const link = open.find((i) => i.payment_link)?.payment_link ?? `${ctx.config.publicUrl}/billing`;
      throw new ApiError(402, ErrorText.pendingPayments, 'Please pay the open invoices before deleting your account.', { payment_link: link });
    }
    // Nobody loses access without being told: an organization this user alone owns but others use stays until its
    // other members are removed (there is no ownership transfer yet).
    const shared = await listSolelyOwnedOrganizationsWithMembers(ctx.db, user.id);
    if (shared.length > 0) {
      throw new ApiError(
        409,
        'You own an organization with other members',
        `You are the only owner of ${shared.map((o) => o.name).join(', ')}, which has other members. Remove them in Organization Settings before deleting your account.`,
      );
    }
    await ctx.db.transaction(async (tx) => {
      // What goes with the account: personal projects and the organizations this user alone owns (no other members),
      // their integrations released through the product seam first.
      await releaseProjectIntegrations(tx, ctx.products, await listProjectsDeletedWithAccount(tx, user.id));
      await deleteSolelyOwnedOrganizations(tx, user.id);
      await handOverCreatedProjects(tx, user.id);
      await detachBillingAccountsOfOwner(tx, user.id);
      await deleteUser(tx, user.id);
      await endSessionsOfAccount(tx, user.id, null);
    });
    ctx.callers.forgetSubject(user.id);
    sendJson(res, 200, { message: 'Your account has been deleted.' });
  });
}
