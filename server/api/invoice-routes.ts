import type { ServerResponse } from 'node:http';
import type { Invoice } from '../../contract/invoices';
import { checkCard } from '../adapters/payments/local-payment-provider';
import { LOCAL_TEST_CARDS } from '../../contract/payments';
import { findOrganizationBillingAccount, findPersonalBillingAccount } from '../db/repositories/billing-repository';
import { findInvoiceByPayToken, listInvoicesOfAccount, recordPaymentAttempt, type InvoiceRow } from '../db/repositories/invoices-repository';
import { escapeHtml } from '../identity/email-verification';
import type { ApiContext, ApiRouter } from '../route-kit/api-context';
import { requireCaller, requireOrganization } from '../route-kit/caller';
import { readBody, sendJson } from '../route-kit/http';

const toInvoice = (row: InvoiceRow): Invoice => ({
  id: row.id,
  amount_cents: row.amount_cents,
  currency: row.currency,
  status: row.status,
  description: row.description,
  period_start: row.period_start?.toISOString() ?? null,
  period_end: row.period_end?.toISOString() ?? null,
  paid_at: row.paid_at?.toISOString() ?? null,
  payment_link: row.status === 'open' ? row.payment_link : null,
  payment_error: row.status === 'open' ? row.payment_error : null,
  created_at: row.created_at.toISOString(),
});

/** GET billing/invoices: the invoices of the account that pays in the current mode (as GET billing/current). */
export function registerInvoiceRoutes(router: ApiRouter, ctx: ApiContext): void {
  router.add('GET', 'billing/invoices', async ({ res }, scope) => {
    const caller = requireCaller(await scope.caller());
    let accountId: number | null = null;
    if (caller.organizationId === null) {
      accountId = (await findPersonalBillingAccount(ctx.db, caller.userId))?.id ?? null;
    } else {
      const membership = await requireOrganization(caller);
      // Non-owners see no invoices (and no billing account): the same answer shape as billing/current.
      if (membership.owner) accountId = (await findOrganizationBillingAccount(ctx.db, caller.organizationId))?.id ?? null;
    }
    sendJson(res, 200, accountId === null ? [] : (await listInvoicesOfAccount(ctx.db, accountId)).map(toInvoice));
  });
}

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), maximumFractionDigits: 2 }).format(cents / 100);

function page(res: ServerResponse, status: number, title: string, body: string, realmPath: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${realmPath}/resources/identity.css"></head>
<body><main class="card"><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`);
}

/**
 * The local provider's hosted "pay now" page for an open invoice (the hosted provider has its own invoice pages).
 * The link's token is the capability, as with the hosted provider: no sign-in. Installed only with the local provider.
 */
export function registerLocalInvoicePayRoutes(router: ApiRouter, ctx: ApiContext): void {
  const realmPath = `/realms/${encodeURIComponent(ctx.config.realm)}`;
  const back = `${ctx.config.publicUrl}/billing`;
  const form = (invoice: InvoiceRow, error?: string, values: Record<string, string> = {}) => `
<p class="lead">${escapeHtml(invoice.description)}</p>
<p>Amount due: <strong data-amount>${escapeHtml(money(invoice.amount_cents, invoice.currency))}</strong></p>
${invoice.period_start && invoice.period_end ? `<p>Period: ${escapeHtml(invoice.period_start.toISOString().slice(0, 10))} – ${escapeHtml(invoice.period_end.toISOString().slice(0, 10))}</p>` : ''}
${error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" novalidate>
<label for="card_number">Card number</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="${escapeHtml(values.card_number ?? '')}" required>
<label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" autocomplete="cc-exp" value="${escapeHtml(values.exp ?? '')}" required>
<label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">Pay ${escapeHtml(money(invoice.amount_cents, invoice.currency))}</button>
</form>
<p>Test cards of the local provider: 4242 4242 4242 4242 pays, 4000 0000 0000 0341 is declined.</p>`;

  router.add('GET', 'payments/local/invoices/:token/pay', async ({ res, params }) => {
    const invoice = await findInvoiceByPayToken(ctx.db, params.token);
    if (!invoice) return page(res, 404, 'Invoice not found', '<p>This payment link is unknown.</p>', realmPath);
    if (invoice.status !== 'open') {
      return page(res, 200, 'Invoice paid', `<p>This invoice has been paid.</p><p><a href="${escapeHtml(back)}">Back to billing</a></p>`, realmPath);
    }
    page(res, 200, 'Pay your invoice', form(invoice), realmPath);
  });

  router.add('POST', 'payments/local/invoices/:token/pay', async ({ req, res, params }) => {
    const invoice = await findInvoiceByPayToken(ctx.db, params.token);
    if (!invoice) return page(res, 404, 'Invoice not found', '<p>This payment link is unknown.</p>', realmPath);
    const body = (await readBody(req)) as Record<string, unknown>;
    const values = Object.fromEntries(['card_number', 'exp', 'cvc'].map((key) => [key, typeof body?.[key] === 'string' ? (body[key] as string) : '']));
    if (invoice.status !== 'open') {
      return page(res, 200, 'Invoice paid', `<p>This invoice has been paid.</p><p><a href="${escapeHtml(back)}">Back to billing</a></p>`, realmPath);
    }
    const [month, year] = values.exp.split('/').map((part) => Number(part.trim()));
    const check = checkCard({ card_number: values.card_number, exp_month: month || 0, exp_year: year || 0, cvc: values.cvc.trim() }, ctx.clock.now());
    const declined = values.card_number.replace(/[\s-]/g, '') === LOCAL_TEST_CARDS.chargeDeclined;
    if (!check.ok || declined) {
      return page(res, 402, 'Pay your invoice', form(invoice, check.ok ? 'Your card was declined.' : check.message, values), realmPath);
    }
    await recordPaymentAttempt(ctx.db, invoice.id, ctx.clock.now(), { paid: true, paymentRef: `ch_local_${invoice.id}_${Date.now()}` });
    page(
      res,
      200,
      'Payment received',
      `<p>Thank you: ${escapeHtml(money(invoice.amount_cents, invoice.currency))} paid with ${escapeHtml(check.brand)} •••• ${escapeHtml(check.last4)}.</p><p><a href="${escapeHtml(back)}">Back to billing</a></p>`,
      realmPath,
    );
  });
}
