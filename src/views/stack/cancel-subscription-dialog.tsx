// "Cancel subscription" with its confirm modal (spec 001 §4), for every product page; the steps are the
// cancelSubscription machine. On success the affected queries are refetched and the person lands on the stack page.
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useNavigate } from 'react-router';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { formatDate } from '../../lib/format';
import { cancelSubscriptionMachine, type CancelSubscriptionMachine } from '../../machines/cancel-subscription/cancel-subscription.machine';
import { cancelIntegration } from '../../services/stack';
import { toast } from '../../services/toast-store';

export interface CancelSubscriptionProps {
  productSlug: string;
  productName: string;
  projectId: number;
  projectSlug: string;
}

export const cancelDescription = (productSlug: string, productName: string) =>
  productSlug === 'grafana'
    ? 'Grafana is cancelled in every project of the organization at the end of the current period.'
    : `${productName} stays available until the end of the current period, then it is removed from this project.`;

/** The button and its modal, driven by a cancelSubscription actor (the model test renders this with its own actor). */
export function CancelSubscriptionDialog({ actor, productSlug, productName }: { actor: ActorRefFrom<CancelSubscriptionMachine>; productSlug: string; productName: string }) {
  const state = useSelector(actor, (s) => s);
  const pending = state.matches('cancelling');
  const open = state.matches('confirming') || pending || state.matches('failed');
  return (
    <>
      <Button variant="outline" disabled={!state.matches('closed')} onClick={() => actor.send({ type: 'cancel.open' })}>
        Cancel subscription
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next && !pending) actor.send({ type: 'cancel.keep' });
        }}
        role="alertdialog"
        title={`Cancel the ${productName} subscription?`}
        description={cancelDescription(productSlug, productName)}
        footer={
          <>
            <Button variant="outline" disabled={pending} onClick={() => actor.send({ type: 'cancel.keep' })}>
              Keep subscription
            </Button>
            <Button loading={pending} onClick={() => actor.send({ type: 'cancel.confirm' })}>
              Cancel subscription
            </Button>
          </>
        }
      >
        {state.context.error && <Alert status="error">{state.context.error}</Alert>}
      </Dialog>
    </>
  );
}

export function CancelSubscriptionButton({ productSlug, productName, projectId, projectSlug }: CancelSubscriptionProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const actor = useActorRef(
    cancelSubscriptionMachine.provide({
      actors: { cancelSubscription: fromPromise(({ input }) => cancelIntegration(input.productSlug, input.projectId)) },
      actions: {
        notifyCancelled: (_, output) => {
          toast.success(output.message, `${productName} stays available until ${formatDate(output.cancellationDateTimestamp * 1000)}.`);
          void queryClient.invalidateQueries({ queryKey: ['integrations'] });
          void queryClient.invalidateQueries({ queryKey: ['users', 'products'] });
        },
        openStack: () => navigate(`/${projectSlug}/stack`),
      },
    }),
    { input: { productSlug, projectId } },
  );
  return <CancelSubscriptionDialog actor={actor} productSlug={productSlug} productName={productName} />;
}
