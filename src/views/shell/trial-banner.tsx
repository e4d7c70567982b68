import { useQuery } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { TRIAL_WARNING_DAYS, trialBannerText } from './trial-banner-text';

/** Shown in organization mode while trial days remain; red under 5 days. */
export function TrialBanner({ organizationId }: { organizationId: number | null }) {
  const trial = useQuery({ ...queries.organizationTrial(organizationId ?? 0), enabled: organizationId !== null });
  const days = trial.data?.remainingDays ?? 0;
  if (organizationId === null || !trial.isSuccess || days <= 0) return null;
  const urgent = days < TRIAL_WARNING_DAYS;
  return (
    <div
      role="status"
      data-urgent={urgent || undefined}
      className={css({ px: { base: '4', md: '6' }, py: '2', textStyle: 'sm', textAlign: 'center', borderBottomWidth: '1px', bg: 'iris.a3', color: 'iris.12', '&[data-urgent]': { bg: 'red.a3', color: 'red.11', fontWeight: 'medium' } })}
    >
      {trialBannerText(days)}
    </div>
  );
}
