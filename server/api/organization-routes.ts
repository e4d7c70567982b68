import { ErrorText } from '../../contract/errors';
import { AcceptInvitationQuery, DeleteInviteQuery, InviteBody, ResendInvitationBody, type InvitedUser } from '../../contract/invitations';
import { CreateOrganizationBody, PromoteQuery } from '../../contract/organizations';
import type { Queryable } from '../db/database';
import { findManageableBillingAccount } from '../db/repositories/billing-repository';
import {
  claimInvitation,
  countInvitationMail,
  createInvitation,
  deleteInvitation,
  findInvitation,
  findPendingInvitationByCode,
  findPendingInvitationByEmail,
  recordInvitationMail,
  listPendingInvitations,
  renewInvitation,
  type InvitationRow,
} from '../db/repositories/invitations-repository';
import {
  addMember,
  createOrganization,
  findOrganizationTrialEnd,
  isOrganizationMember,
  listOrganizationUsers,
  listOwnedOrganizations,
  removeMember,
  setMemberReadOnly,
  lockAndCheckOwnsOrganization,
} from '../db/repositories/organizations-repository';
import { findOrganizationProjectIds } from '../db/repositories/projects-repository';
import { findUserByEmail, findUserById } from '../db/repositories/users-repository';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireOrganization, requireOwner, requireWritable } from '../route-kit/caller';
import { ApiError, badRequest, conflict, decodeOrThrow, forbidden, notFound, readBody, sendJson } from '../route-kit/http';

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toInvitedUser = (row: InvitationRow): InvitedUser => ({
  id: row.id,
  inviting_user_name: row.inviting_user_name,
  invited_user_email: row.invited_email,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
  read_only: row.read_only,
  project_ids: row.project_ids,
  expired: row.expires_at.getTime() <= Date.now(),
});

export function invitationLink(publicUrl: string, invitation: InvitationRow): string {
  const query = new URLSearchParams({ code: invitation.code, organization_name: invitation.organization_name });
  return `${publicUrl}/invitations?${query}`;
}

async function requireInvitationMailAllowed(ctx: ApiContext, email: string): Promise<void> {
  if ((await countInvitationMail(ctx.db, email, 3600)) >= INVITATION_MAILS_PER_HOUR) {
    throw new ApiError(429, 'Too many invitations', `At most ${INVITATION_MAILS_PER_HOUR} invitations can be sent to one email address per hour. Please try again later.`);
  }
}

/** Invitation mails one address may receive per hour, from every organization together. */
export const INVITATION_MAILS_PER_HOUR = 5;

async function mailInvitation(ctx: ApiContext, invitation: InvitationRow): Promise<void> {
  await recordInvitationMail(ctx.db, invitation.invited_email);
  const link = invitationLink(ctx.config.publicUrl, invitation);
  const who = invitation.inviting_user_name || 'A colleague';
  const days = Math.max(1, Math.round((invitation.expires_at.getTime() - Date.now()) / DAY_MS));
  await ctx.mailer.send({
    to: invitation.invited_email,
    subject: `You have been invited to ${invitation.organization_name}`,
    text: `${who} invited you to the organization ${invitation.organization_name}.\n\nAccept the invitation here:\n${link}\n\nThe link expires in ${days} days.\n`,
    html: `<p>${escapeHtml(who)} invited you to the organization <strong>${escapeHtml(invitation.organization_name)}</strong>.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a></p><p>The link expires in ${days} days.</p>`,
  });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Project ids of an invitation must be projects of the organization. */
async function checkProjectsOfOrganization(db: Queryable, organizationId: number, projectIds: readonly number[]): Promise<void> {
  if (projectIds.length === 0) return;
  const found = new Set(await findOrganizationProjectIds(db, organizationId, projectIds));
  const missing = projectIds.filter((id) => !found.has(id));
  if (missing.length > 0) throw new ApiError(422, 'Validation error', 'Some fields are not valid.', { details: { project_ids: [`Unknown project: ${missing.join(', ')}`] } });
}

export function registerOrganizationRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add('POST', 'organizations', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(CreateOrganizationBody, await readBody(req));
    const owned = await listOwnedOrganizations(ctx.db, caller.userId);
    if (owned.length > 0) throw conflict(ErrorText.alreadyOwnsOrganization, `You already own ${owned[0].name}. Switch to it to invite colleagues.`);
    const account = await findManageableBillingAccount(ctx.db, caller.userId, body.billing_account_id);
    if (!account || account.owner_user_id !== caller.userId) {
      throw notFound(`We could not find billing account ${body.billing_account_id} among your billing accounts.`);
    }
    if (!account.payment_method_id) {
      throw badRequest('The payment method is missing', 'Add a card to the billing account before creating the organization.');
    }
    const organizationId = await ctx.db.transaction(async (tx) => {
      // Re-checked inside the transaction with a per-user lock, so two quick submits cannot create two organizations.
      if (await lockAndCheckOwnsOrganization(tx, caller.userId)) throw conflict(ErrorText.alreadyOwnsOrganization, 'You already own an organization.');
      return createOrganization(tx, { name: body.display_name, billingAccountId: account.id, ownerUserId: caller.userId, now: ctx.clock.now() });
    });
    sendJson(res, 201, { message: 'Organization created successfully', organization_id: organizationId });
  });

  router.add('GET', 'organizations/users', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const membership = await requireOrganization(caller);
    sendJson(res, 200, await listOrganizationUsers(ctx.db, membership.organization_id));
  });

  router.add('GET', 'organizations/users/owner', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    sendJson(res, 200, await listOwnedOrganizations(ctx.db, caller.userId));
  });

  router.add('GET', 'organizations/trial', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const membership = await requireOrganization(caller);
    const endsAt = await findOrganizationTrialEnd(ctx.db, membership.organization_id);
    const remaining = endsAt ? Math.max(0, Math.ceil((endsAt.getTime() - ctx.clock.nowMs()) / DAY_MS)) : 0;
    sendJson(res, 200, { remaining_days: remaining, trial_ends_at: endsAt ? endsAt.toISOString() : null });
  });

  router.add('GET', 'organizations/invitations', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const membership = await requireOrganization(caller);
    sendJson(res, 200, (await listPendingInvitations(ctx.db, membership.organization_id)).map(toInvitedUser));
  });

  router.add('POST', 'organizations/invitations', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(InviteBody, await readBody(req));
    const membership = await requireOwner(caller);
    await requireWritable(caller);
    const organizationId = membership.organization_id;
    const projectIds = [...new Set(body.project_ids ?? [])];
    await checkProjectsOfOrganization(ctx.db, organizationId, projectIds);
    const existing = await findUserByEmail(ctx.db, body.email);
    if (existing && (await isOrganizationMember(ctx.db, organizationId, existing.id))) {
      throw new ApiError(422, 'Validation error', 'Some fields are not valid.', { details: { email: ['This person is already a member of the organization.'] } });
    }
    if (await findPendingInvitationByEmail(ctx.db, organizationId, body.email)) {
      throw new ApiError(422, 'Validation error', 'Some fields are not valid.', {
        details: { email: ['An invitation for this email is already pending. Re-send it from the pending members.'] },
      });
    }
    await requireInvitationMailAllowed(ctx, body.email);
    const invitation = await createInvitation(ctx.db, {
      organizationId,
      email: body.email,
      invitingUserId: caller.userId,
      readOnly: body.read_only ?? false,
      projectIds,
    });
    await mailInvitation(ctx, invitation);
    // Whether the address has an account (and its id) is not said: an owner could otherwise probe any address.
    sendJson(res, 201, {
      message: `An invitation has been sent to ${invitation.invited_email}.`,
      invitation_id: invitation.id,
      organization_id: organizationId,
    });
  });

  const resend = async (id: number, caller: Parameters<typeof requireOwner>[0]) => {
    const membership = await requireOwner(caller);
    await requireWritable(caller);
    const current = await findInvitation(ctx.db, membership.organization_id, id);
    if (current && !current.accepted_at) await requireInvitationMailAllowed(ctx, current.invited_email);
    const invitation = await renewInvitation(ctx.db, membership.organization_id, id);
    if (!invitation) throw notFound(`We could not find a pending invitation ${id} in this organization.`);
    await mailInvitation(ctx, invitation);
    return { message: `The invitation has been re-sent to ${invitation.invited_email}.` };
  };

  router.add('PATCH', 'organizations/invitations', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { id } = decodeOrThrow(ResendInvitationBody, await readBody(req));
    sendJson(res, 200, await resend(id, caller));
  });

  router.add('POST', 'organizations/invitations/:id/resend', async ({ res, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { id } = decodeOrThrow(ResendInvitationBody, { id: /^\d+$/.test(params.id) ? Number(params.id) : params.id });
    sendJson(res, 200, await resend(id, caller));
  });

  router.add('DELETE', 'organizations/invites', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { invite_id } = decodeOrThrow(DeleteInviteQuery, query);
    const membership = await requireOwner(caller);
    await requireWritable(caller);
    if (!(await deleteInvitation(ctx.db, membership.organization_id, invite_id))) {
      throw notFound(`We could not find a pending invitation ${invite_id} in this organization.`);
    }
    sendJson(res, 200, { message: 'The invitation has been deleted.' });
  });

  router.add('POST', 'organizations/invitations/accept', async ({ req, res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = (await readBody(req)) as Record<string, unknown>;
    const code = query.code ?? (body && typeof body === 'object' ? body.code : undefined);
    const input = decodeOrThrow(AcceptInvitationQuery, { code });
    // An invitation is for the address it was mailed to: whoever reads the code elsewhere cannot use it.
    const pending = await findPendingInvitationByCode(ctx.db, input.code);
    if (pending) {
      const user = await findUserById(ctx.db, caller.userId);
      if (!user || user.email.toLowerCase() !== pending.invited_email.toLowerCase()) {
        throw new ApiError(403, ErrorText.invitationOtherEmail, ErrorText.invitationOtherEmailDescription, { error: ErrorText.invitationOtherEmail });
      }
      if (!user.email_verified) {
        throw new ApiError(403, ErrorText.invitationUnverified, ErrorText.invitationUnverifiedDescription, { error: ErrorText.invitationUnverified });
      }
    }
    const invitation = await ctx.db.transaction(async (tx) => {
      const claimed = await claimInvitation(tx, input.code, caller.userId);
      if (!claimed) return undefined;
      await addMember(tx, {
        organizationId: claimed.organization_id,
        userId: caller.userId,
        readOnly: claimed.read_only,
        projectIds: claimed.project_ids,
      });
      return claimed;
    });
    if (!invitation) {
      // The spec's console reads an `error` field on failure.
      throw new ApiError(400, ErrorText.invitationInvalid, ErrorText.invitationInvalidDescription, { error: ErrorText.invitationInvalid });
    }
    sendJson(res, 200, {
      message: `Welcome to ${invitation.organization_name}.`,
      organization_id: invitation.organization_id,
      organization_name: invitation.organization_name,
    });
  });

  router.add('DELETE', 'organizations/user/:id', async ({ res, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const membership = await requireOwner(caller);
    await requireWritable(caller);
    if (!UUID.test(params.id)) throw notFound('We could not find this user in the organization.');
    if (params.id === caller.userId) throw forbidden('You cannot remove yourself, you own this organization.');
    const removed = await ctx.db.transaction((tx) => removeMember(tx, membership.organization_id, params.id));
    if (!removed) throw notFound('We could not find this user among the members of the organization (owners cannot be removed).');
    sendJson(res, 200, { message: 'The user has been removed from the organization, its projects and integrations.' });
  });

  router.add('GET', 'users/promote', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const input = decodeOrThrow(PromoteQuery, query);
    const membership = await requireOwner(caller);
    await requireWritable(caller);
    if (input.organization_id !== membership.organization_id) {
      throw forbidden('You can only change roles in the organization you are signed in to.');
    }
    const changed = await setMemberReadOnly(ctx.db, membership.organization_id, input.user_id, input.read_only === 'true');
    if (!changed) throw notFound('We could not find this user among the members of the organization (owners keep their role).');
    sendJson(res, 200, { message: 'User promoted' });
  }, { readOnly: false });
}
