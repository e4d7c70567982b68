import { formatPrice, pluralize } from '../../lib/format';

/** After the trial, organization mode costs a flat fee (spec 000 section 9). */
export const ORGANIZATION_MONTHLY_PRICE = 249;
export const TRIAL_WARNING_DAYS = 5;

export function trialBannerText(remainingDays: number): string {
  return `Your organization trial ends in ${pluralize(remainingDays, 'day')}. After the trial, organization mode costs a flat ${formatPrice(ORGANIZATION_MONTHLY_PRICE)}/month.`;
}
