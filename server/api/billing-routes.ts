import {
  AddTaxIdBody,
  AttachPaymentMethodBody,
  BillingAccountIdQuery,
  CreateBillingAccountBody,
  RemoveTaxIdQuery,
  SetupPaymentMethodBody,
  type BillingAccount,
  type TaxId,
} from '../../contract/billing';
import { PaymentProviderError, type BillingAccountRef } from '../adapters/payments/payment-provider';
import {
  addTaxId,
  createBillingAccount,
  findBillingAccountByName,
  findManageableBillingAccount,
  findOrganizationBillingAccount,
  findPersonalBillingAccount,
  listTaxIds,
  listUnfinishedBillingAccounts,
  removeTaxId,
  setCustomerRef,
  setPaymentMethod,
  type BillingAccountRow,
  type TaxIdRow,
} from '../db/repositories/billing-repository';
import { unfinishedBillingAccountDays, unfinishedRemovalDate } from '../billing/unfinished-billing-accounts';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireOrganization, requireWritable, type Caller } from '../route-kit/caller';
import { ApiError, ValidationError, conflict, decodeOrThrow, notFound, readBody, sendJson } from '../route-kit/http';

const toTaxId = (row: TaxIdRow): TaxId => ({
  id: row.id,
  country: row.country,
  type: row.type,
  value: row.value,
  created_at: row.created_at.toISOString(),
});

async function toBillingAccount(ctx: ApiContext, row: BillingAccountRow): Promise<BillingAccount> {
  return {
    id: row.id,
    name: row.name,
    default: row.is_default,
    payment_method_id: row.payment_method_id,
    payment_method_label: row.payment_method_label,
    tax_ids: (await listTaxIds(ctx.db, row.id)).map(toTaxId),
  };
}

/** A billing account the caller owns (or whose organization they own), else 404. */
async function manageableOr404(ctx: ApiContext, caller: Caller, id: number): Promise<BillingAccountRow> {
  const account = await findManageableBillingAccount(ctx.db, caller.userId, id);
  if (!account) throw notFound(`We could not find billing account ${id} among the billing accounts you manage.`);
  return account;
}

/** The provider-facing view of an account, with a provider customer created first when the provider keeps them. */
async function providerAccount(ctx: ApiContext, caller: Caller, account: BillingAccountRow): Promise<BillingAccountRef> {
  const ref: BillingAccountRef = { id: account.id, name: account.name, customerRef: account.customer_ref, ownerEmail: caller.claims.email };
  if (!ref.customerRef && ctx.payments.createCustomer) {
    ref.customerRef = await ctx.payments.createCustomer(ref);
    await setCustomerRef(ctx.db, account.id, ref.customerRef);
  }
  return ref;
}

async function withProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new ApiError(error.status, error.message, error.message);
    throw error;
  }
}

export function registerBillingRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add('GET', 'billing/current', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    if (caller.organizationId === null) {
      const account = await findPersonalBillingAccount(ctx.db, caller.userId);
      sendJson(res, 200, { billing_account: account ? await toBillingAccount(ctx, account) : null, manageable: true });
      return;
    }
    const membership = await requireOrganization(caller);
    // Members who are not owners get an empty answer rather than a 403: the console signs a user out on 403.
    if (!membership.owner) {
      sendJson(res, 200, { billing_account: null, manageable: false });
      return;
    }
    const account = await findOrganizationBillingAccount(ctx.db, caller.organizationId);
    sendJson(res, 200, { billing_account: account ? await toBillingAccount(ctx, account) : null, manageable: true });
  });

  router.add('GET', 'stripe/billing-account-id', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const { name } = decodeOrThrow(BillingAccountIdQuery, query);
    const account = await findBillingAccountByName(ctx.db, caller.userId, name);
    const unfinished = !!account && (await listUnfinishedBillingAccounts(ctx.db, caller.userId)).some((row) => row.id === account.id);
    sendJson(res, 200, { billing_account_id: account?.id ?? null, has_payment_method: !!account?.payment_method_id, unfinished });
  });

  router.add('GET', 'billing/unfinished', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const days = unfinishedBillingAccountDays(ctx.config);
    const rows = await listUnfinishedBillingAccounts(ctx.db, caller.userId);
    sendJson(res, 200, {
      billing_accounts: rows.map((row) => ({
        id: row.id,
        name: row.name,
        has_payment_method: !!row.payment_method_id,
        created_at: row.created_at.toISOString(),
        removed_after: unfinishedRemovalDate(row.created_at, days).toISOString(),
      })),
    });
  });

  router.add('GET', 'stripe/config', async ({ res }, scope) => {
    // Public: the card form needs the publishable key before anything else. Email and username when signed in.
    let caller: Caller | null = null;
    try {
      caller = await scope.caller();
    } catch {
      caller = null;
    }
    const username = caller ? `${caller.claims.given_name ?? ''} ${caller.claims.family_name ?? ''}`.trim() || caller.claims.email : null;
    sendJson(res, 200, {
      publishable_key: ctx.payments.kind === 'stripe' ? (ctx.config.stripePublishableKey ?? null) : null,
      mock: ctx.payments.kind === 'local',
      email: caller?.claims.email ?? null,
      username,
    });
  });

  router.add('POST', 'billing', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(CreateBillingAccountBody, await readBody(req));
    await requireWritable(caller);
    if (await findBillingAccountByName(ctx.db, caller.userId, body.name)) {
      throw new ValidationError({ name: ['You already have a billing account with this name.'] });
    }
    const account = await ctx.db.transaction((tx) =>
      createBillingAccount(tx, {
        name: body.name,
        ownerUserId: caller.userId,
        isDefault: body.default ?? false,
        forOrganization: body.for_organization ?? false,
        // Business time, as the cleanup job that removes it when unfinished reads it.
        createdAt: ctx.clock.now(),
      }),
    );
    sendJson(res, 201, { message: 'The billing account has been created.', billing_account_id: account.id });
  });

  router.add('POST', 'billing/payment-methods/setup', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(SetupPaymentMethodBody, await readBody(req));
    await requireWritable(caller);
    const account = await manageableOr404(ctx, caller, body.billing_account_id);
    const secret = await withProvider(async () => ctx.payments.createSetupIntent(await providerAccount(ctx, caller, account)));
    sendJson(res, 201, secret);
  });

  router.add('POST', 'billing/payment-methods/attach', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(AttachPaymentMethodBody, await readBody(req));
    await requireWritable(caller);
    const account = await manageableOr404(ctx, caller, body.billing_account_id);
    const { label } = await withProvider(async () =>
      ctx.payments.attachPaymentMethod(await providerAccount(ctx, caller, account), body.payment_method_id),
    );
    await setPaymentMethod(ctx.db, account.id, body.payment_method_id, label);
    sendJson(res, 200, { message: 'Payment method updated', payment_method_id: body.payment_method_id });
  });

  router.add('POST', 'billing/tax-id', async ({ req, res }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(AddTaxIdBody, await readBody(req));
    await requireWritable(caller);
    const account = await manageableOr404(ctx, caller, body.billing_account_id);
    if (!account.payment_method_id) {
      throw new ApiError(400, 'You need to configure a payment method first.', 'Add a card to this billing account before adding a tax id.');
    }
    const country = body.country?.toUpperCase() ?? null;
    const { providerRef } = await withProvider(async () =>
      ctx.payments.addTaxId(await providerAccount(ctx, caller, account), { type: body.type, value: body.value }),
    );
    const row = await addTaxId(ctx.db, { billingAccountId: account.id, country, type: body.type, value: body.value, providerRef });
    if (!row) throw conflict('Tax id already added', 'This tax id is already on the billing account.');
    sendJson(res, 201, { message: 'The tax id has been added.', tax_id: toTaxId(row) });
  });

  router.add('DELETE', 'billing/tax-id', async ({ res, query }, scope) => {
    const caller = requireCaller(await scope.caller());
    const body = decodeOrThrow(RemoveTaxIdQuery, query);
    await requireWritable(caller);
    const account = await manageableOr404(ctx, caller, body.billing_account_id);
    // In the database first, then at the provider: a provider failure rolls the removal back.
    await ctx.db.transaction(async (tx) => {
      const removed = await removeTaxId(tx, account.id, body.tax_id);
      if (!removed) throw notFound(`We could not find tax id ${body.tax_id} on this billing account.`);
      if (removed.provider_ref && ctx.payments.removeTaxId) {
        const ref = removed.provider_ref;
        await withProvider(async () => ctx.payments.removeTaxId!(await providerAccount(ctx, caller, account), ref));
      }
    });
    sendJson(res, 200, { message: 'The tax id has been removed.' });
  });
}
