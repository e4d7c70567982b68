import { ConfirmSetupIntentBody } from '../../contract/payments';
import { confirmLocalSetupIntent, findLocalSetupIntent } from '../adapters/payments/local-payment-provider';
import { findManageableBillingAccount } from '../db/repositories/billing-repository';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireWritable } from '../route-kit/caller';
import { decodeOrThrow, notFound, readBody, sendJson } from '../route-kit/http';

/** The local card provider's confirm call; installed only when the local provider is the one in use. */
export function registerLocalPaymentRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add('POST', 'payments/local/setup-intents/:secret/confirm', async ({ req, res, params }, scope) => {
    const caller = requireCaller(await scope.caller());
    const card = decodeOrThrow(ConfirmSetupIntentBody, await readBody(req));
    // Confirming a card is a billing write, refused in a read-only (or foreign) organization mode like setup and attach.
    await requireWritable(caller);
    const intent = await findLocalSetupIntent(ctx.db, params.secret);
    // Only someone who manages the billing account may confirm a card for it.
    if (!intent || !(await findManageableBillingAccount(ctx.db, caller.userId, intent.billing_account_id))) {
      throw notFound('This card setup is unknown. Please start again.');
    }
    const outcome = await confirmLocalSetupIntent(ctx.db, params.secret, card);
    switch (outcome.kind) {
      case 'succeeded':
        sendJson(res, 200, { setup_intent: { id: outcome.setupIntentId, status: 'succeeded', payment_method: outcome.paymentMethodId } });
        return;
      case 'card-error':
        sendJson(res, 402, { error: { message: outcome.message, code: outcome.code, ...(outcome.param ? { param: outcome.param } : {}) } });
        return;
      case 'already-confirmed':
        sendJson(res, 400, { error: { message: 'This card setup has already been completed.', code: 'setup_intent_unexpected_state' } });
        return;
      case 'unknown-intent':
        throw notFound('This card setup is unknown. Please start again.');
    }
  });
}
