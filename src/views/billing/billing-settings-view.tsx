// /billing and /{projectSlug}/billing: Billing Settings (spec 000 section 2): the Payment method card (edit=
// payment-method opens the card modal with the card form of the organization wizard), the Tax Information card
// (edit=tax-id) and the invoices of the billing ledger (docs/account.md).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { taxIdTypesFor } from '../../../contract/tax-ids';
import { useCurrentUser } from '../../app/auth-context';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog } from '../../components/ui/dialog';
import { Spinner } from '../../components/ui/spinner';
import { formatCents, formatDate } from '../../lib/format';
import { createBillingAccount, getCurrentBilling, listInvoices, removeTaxId } from '../../services/billing';
import { toast } from '../../services/toast-store';
import { CardSetupPanel } from '../billing-card/card-setup-panel';
import { useShellData } from '../shell/use-shell-data';
import { useUrlValue } from '../url-state/use-url-state';
import { TaxIdForm } from './tax-id-form';

export const CARD_OK = 'The credit card is configured correctly';
export const NO_CARD = 'No credit card configured';
export const NEED_PAYMENT_METHOD = 'You need to configure a payment method first.';
export const PAYMENT_METHOD_UPDATED = 'Payment method updated';

type Invoice = Awaited<ReturnType<typeof listInvoices>>[number];

/** The invoice as a file (what the list shows, with its period and payment), named after its number. */
function downloadInvoice(invoice: Invoice): void {
  const blob = new Blob([JSON.stringify(invoice, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `invoice-${invoice.id}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function BillingSettingsView() {
  const { organizationId } = useShellData();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const [edit, setEdit] = useUrlValue('edit');
  const billing = useQuery({ queryKey: ['billing', 'current', organizationId], queryFn: getCurrentBilling });
  const invoices = useQuery({ queryKey: ['billing', 'invoices', organizationId], queryFn: listInvoices });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['billing'] });
  // A personal account without a billing account gets one the first time it configures a card.
  const create = useMutation({ mutationFn: () => createBillingAccount(`${user.name || user.email} billing`), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: removeTaxId,
    onSuccess: (answer) => {
      toast.success(answer.message);
      refresh();
    },
  });

  if (billing.isError) {
    return (
      <Page>
        <Alert status="error" title="We had issues loading your billing information">
          Please refresh the page and try again. If the problem persists, please contact support.
        </Alert>
      </Page>
    );
  }
  if (billing.isPending) {
    return (
      <Page>
        <Spinner />
      </Page>
    );
  }
  if (!billing.data.manageable) {
    return (
      <Page>
        <Alert status="info" title="Billing is managed by the organization owner">
          Only owners of the organization see and change its payment method, tax information and invoices.
        </Alert>
      </Page>
    );
  }
  const account = billing.data.billingAccount;
  const hasCard = Boolean(account?.paymentMethodId);

  return (
    <Page>
      <Card
        title="Payment method"
        footer={
          <Button variant="outline" onClick={() => setEdit('payment-method')}>
            {hasCard ? 'Change card' : 'Configure card'}
          </Button>
        }
      >
        <p>{hasCard ? CARD_OK : NO_CARD}</p>
        {account?.paymentMethodLabel && <p className={css({ color: 'fg.muted' })}>{account.paymentMethodLabel}</p>}
      </Card>

      <Card
        title="Tax Information"
        footer={
          hasCard && edit !== 'tax-id' ? (
            <Button variant="outline" onClick={() => setEdit('tax-id')}>
              Add tax id
            </Button>
          ) : undefined
        }
      >
        {!hasCard || !account ? (
          <p className={css({ color: 'fg.muted' })}>{NEED_PAYMENT_METHOD}</p>
        ) : (
          <>
            {account.taxIds.length === 0 ? (
              <p className={css({ color: 'fg.muted' })}>No tax id yet.</p>
            ) : (
              <ul aria-label="Tax ids" className={css({ listStyle: 'none', p: '0', display: 'flex', flexDirection: 'column', gap: '2' })}>
                {account.taxIds.map((taxId) => {
                  const description = taxIdTypesFor(taxId.country ?? '').find((t) => t.type === taxId.type)?.description ?? taxId.type;
                  return (
                    <li key={taxId.id} aria-label={taxId.value} className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
                      <span className={css({ flex: '1' })}>
                        <strong>{taxId.value}</strong> · {description}
                        {taxId.country ? ` · ${taxId.country}` : ''}
                      </span>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Remove tax id ${taxId.value}`}
                        loading={remove.isPending && remove.variables?.taxId === taxId.id}
                        onClick={() => remove.mutate({ billingAccountId: account.id, taxId: taxId.id })}
                      >
                        Remove
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
            {edit === 'tax-id' && (
              <div className={css({ mt: '4' })}>
                <TaxIdForm
                  billingAccountId={account.id}
                  onCancel={() => setEdit(null)}
                  onSaved={() => {
                    refresh();
                    setEdit(null);
                  }}
                />
              </div>
            )}
          </>
        )}
      </Card>

      <Card title="Invoices" description="Organization mode costs a flat $249 per month after the trial, invoiced monthly and charged to the card on file.">
        {invoices.isError ? (
          <p className={css({ color: 'fg.error' })}>We could not load your invoices.</p>
        ) : invoices.isPending ? (
          <Spinner />
        ) : invoices.data.length === 0 ? (
          <p className={css({ color: 'fg.muted' })}>No invoices yet.</p>
        ) : (
          <table className={css({ w: 'full', borderCollapse: 'collapse', '& th, & td': { textAlign: 'left', py: '2', pr: '4', borderBottomWidth: '1px' } })}>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className={css({ srOnly: true })}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.map((invoice) => (
                <tr key={invoice.id} aria-label={`Invoice ${invoice.id}`}>
                  <td>{invoice.periodStart && invoice.periodEnd ? `${formatDate(invoice.periodStart)} – ${formatDate(invoice.periodEnd)}` : formatDate(invoice.createdAt)}</td>
                  <td>{formatCents(invoice.amountCents)}</td>
                  <td>
                    {invoice.status === 'paid' ? <Badge tone="success">Paid</Badge> : invoice.status === 'open' ? <Badge tone="warning">Open</Badge> : <Badge>Void</Badge>}
                    {invoice.paymentError && <div className={css({ color: 'fg.error', fontSize: 'sm' })}>{invoice.paymentError}</div>}
                  </td>
                  <td className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                    {invoice.status === 'open' && invoice.paymentLink && (
                      <a href={invoice.paymentLink} className={css({ textDecoration: 'underline' })}>
                        Pay now
                      </a>
                    )}
                    <Button size="sm" variant="outline" aria-label={`Download invoice ${invoice.id}`} onClick={() => downloadInvoice(invoice)}>
                      Download
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>

      <Dialog open={edit === 'payment-method'} onOpenChange={(open) => !open && setEdit(null)} title={hasCard ? 'Change your card' : 'Configure a card'}>
        {account ? (
          <CardSetupPanel
            billingAccountId={account.id}
            submitLabel="Save card"
            onFailure={(message) => toast.error(message)}
            onAttached={() => {
              toast.success(PAYMENT_METHOD_UPDATED);
              refresh();
              setEdit(null);
            }}
          />
        ) : (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
            <p>A billing account is created for your personal account first.</p>
            <Button loading={create.isPending} onClick={() => create.mutate()}>
              Continue
            </Button>
          </div>
        )}
      </Dialog>
    </Page>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <main className={css({ maxW: '4xl', mx: 'auto', p: { base: '4', md: '8' }, display: 'flex', flexDirection: 'column', gap: '6' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>Billing Settings</h1>
      {children}
    </main>
  );
}
