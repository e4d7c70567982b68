// "Cancel subscription" with its confirm modal (spec 001 §4), for every product page: on success the affected
// queries are refetched and the person lands on the stack page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { formatDate } from '../../lib/format';
import { cancelIntegration } from '../../services/stack';
import { toast } from '../../services/toast-store';

export interface CancelSubscriptionProps {
  productSlug: string;
  productName: string;
  projectId: number;
  projectSlug: string;
}

export function CancelSubscriptionButton({ productSlug, productName, projectId, projectSlug }: CancelSubscriptionProps) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useMutation({
    mutationFn: () => cancelIntegration(productSlug, projectId),
    onSuccess: async (response) => {
      toast.success(response.message, `${productName} stays available until ${formatDate(response.cancellationDateTimestamp * 1000)}.`);
      await queryClient.invalidateQueries({ queryKey: ['integrations'] });
      await queryClient.invalidateQueries({ queryKey: ['users', 'products'] });
      setOpen(false);
      navigate(`/${projectSlug}/stack`);
    },
  });
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        Cancel subscription
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!cancel.isPending) setOpen(next);
        }}
        role="alertdialog"
        title={`Cancel the ${productName} subscription?`}
        description={
          productSlug === 'grafana'
            ? 'Grafana is cancelled in every project of the organization at the end of the current period.'
            : `${productName} stays available until the end of the current period, then it is removed from this project.`
        }
        footer={
          <>
            <Button variant="outline" disabled={cancel.isPending} onClick={() => setOpen(false)}>
              Keep subscription
            </Button>
            <Button loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel subscription
            </Button>
          </>
        }
      >
        {cancel.isError && <Alert status="error">{(cancel.error as { description?: string }).description || cancel.error.message}</Alert>}
      </Dialog>
    </>
  );
}
