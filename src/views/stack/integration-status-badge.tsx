// The status of an enabled product, worded as spec 000 §4 does, used by the stack page and the project overview.
// Trial days are read only for a trial, the cancellation date only for a scheduled cancellation (8 h stale time).
import { useQuery } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { formatDate, pluralize } from '../../lib/format';

/** Under this many days the trial badge turns red (spec 000 §9). */
export const TRIAL_WARNING_DAYS = 5;

export const STATUS_TEXT: Record<string, string> = {
  active: 'Subscription active',
  suspended: 'Subscription suspended',
  cancelled_by_user: 'Cancelled',
  scheduled_for_cancellation: 'Scheduled for cancellation',
};
const STATUS_TONE: Record<string, BadgeTone> = { active: 'success', suspended: 'danger', cancelled_by_user: 'neutral', scheduled_for_cancellation: 'warning' };

export const trialText = (days: number) => `Trial period: ${pluralize(days, 'day')} left`;

export interface StatusBadgeProps {
  status: string;
  productSlug: string;
  projectId: number;
}

export const TRIAL_LOADING = 'Loading...';
export const TRIAL_ERROR = 'Error retrieving trial info';

/**
 * The one wording of an integration's status (the badge, and the sidebar's status dot): a trial reads its days left
 * ('Loading...' while they load, 'Error retrieving trial info' when they cannot be read); trial days are requested
 * only for a trial.
 */
export function useIntegrationStatus({ status, productSlug, projectId }: StatusBadgeProps): { text: string; tone: BadgeTone } {
  const isTrial = status === 'trial';
  const trial = useQuery({ ...queries.integrationTrial(productSlug, projectId), enabled: isTrial });
  if (!isTrial) return { text: STATUS_TEXT[status] ?? status, tone: STATUS_TONE[status] ?? 'neutral' };
  if (trial.isError) return { text: TRIAL_ERROR, tone: 'danger' };
  if (!trial.isSuccess) return { text: TRIAL_LOADING, tone: 'neutral' };
  const days = trial.data.remainingDays;
  return { text: trialText(days), tone: days < TRIAL_WARNING_DAYS ? 'danger' : 'accent' };
}

export function IntegrationStatusBadge(props: StatusBadgeProps) {
  const { text, tone } = useIntegrationStatus(props);
  return <Badge tone={tone}>{text}</Badge>;
}

/** The info line under a product scheduled for cancellation (spec 001 §4). */
export function CancellationInfo({ productSlug, projectId }: { productSlug: string; projectId: number }) {
  const date = useQuery(queries.integrationCancellation(productSlug, projectId));
  const text = date.isPending ? 'loading...' : date.isError || date.data === null ? 'not available.' : formatDate(date.data);
  return (
    <p role="status" className={css({ textStyle: 'xs', color: 'fg.muted' })}>
      This subscription will be cancelled on: {text}
    </p>
  );
}
