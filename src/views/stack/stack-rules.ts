// The stack's visibility and access rules (spec 001 §2 Stack, 000 §4), as pure functions so they are tested without
// rendering. An integration here is what GET integrations/ answers (camelCased).

export interface StackIntegration {
  status: string;
  isUserActive: boolean;
  isAvailable: boolean;
  product: { slug: string; name: string };
}

export const ASK_ADMIN_TEXT = 'Please ask your admin to add you as a user to this integration.';
export const PERMISSIONS_NEEDED_TEXT = 'Permissions needed, please contact project admin';
export const DATA_QUERY_ERROR = 'We encountered an error while fetching some data.';
export const DATA_QUERY_ERROR_DESCRIPTION = 'Please reload the page. If the problem persists, please contact support.';

/**
 * Cards on the stack page: cancelled subscriptions are gone; Grafana and Hepic show only to the people on their user
 * lists (spec 001 §2: the Hepic card is hidden and unlinked unless the person is listed).
 */
export function stackCards<T extends StackIntegration>(integrations: readonly T[]): T[] {
  return integrations.filter((i) => i.status !== 'cancelled_by_user' && !((i.product.slug === 'grafana' || i.product.slug === 'hepic') && !i.isUserActive));
}

/**
 * Why a card is not a link, or null when it is: Hepic for a person not on its user list; for a read-only member a
 * suspended product (only an admin can settle the payment). A suspended product otherwise links to its page,
 * which warns and sends the person back with the payment prompt.
 */
export function unavailableReason(integration: StackIntegration, readOnly: boolean): string | null {
  if (integration.product.slug === 'hepic' && !integration.isUserActive) return ASK_ADMIN_TEXT;
  if (readOnly && integration.status === 'suspended') return PERMISSIONS_NEEDED_TEXT;
  return null;
}

export type AccessDecision = { kind: 'open' } | { kind: 'redirect' } | { kind: 'warn'; message: string; description: string };

/** Opening /{projectSlug}/stack/{slug}: who gets in, who is sent back to the stack (and told why). */
export function accessTo(integration: StackIntegration | undefined): AccessDecision {
  if (!integration) return { kind: 'redirect' };
  if (integration.status === 'suspended') {
    return { kind: 'warn', message: "You're trying to access suspended product", description: 'Please review your payment method in Billing to reactivate it.' };
  }
  if (integration.status === 'cancelled_by_user') {
    return { kind: 'warn', message: "You're trying to access cancelled product", description: 'Add it to the project again from the stack page.' };
  }
  if ((integration.product.slug === 'hepic' || integration.product.slug === 'grafana') && !integration.isUserActive) return { kind: 'redirect' };
  return { kind: 'open' };
}

/** "<Product> <page title>" (spec 001 §2). */
export const productDocumentTitle = (productName: string, pageTitle: string) => `${productName} ${pageTitle}`;
