import { describe, expect, it } from 'vitest';
import { accessTo, ASK_ADMIN_TEXT, PERMISSIONS_NEEDED_TEXT, productDocumentTitle, stackCards, unavailableReason } from '../../src/views/stack/stack-rules';
import { trialText } from '../../src/views/stack/integration-status-badge';

const integration = (slug: string, status = 'active', isUserActive = true) => ({ status, isUserActive, isAvailable: true, product: { slug, name: slug } });

describe('stack rules', () => {
  it('cards: cancelled ones are gone, Grafana and Hepic only for their listed users', () => {
    const list = [integration('qryn'), integration('grafana', 'active', false), integration('hepic', 'active', false), integration('loggen', 'cancelled_by_user')];
    expect(stackCards(list).map((i) => i.product.slug)).toEqual(['qryn']);
    expect(stackCards([integration('hepic', 'active', true), integration('grafana', 'trial', true)]).map((i) => i.product.slug)).toEqual(['hepic', 'grafana']);
    expect(unavailableReason(integration('hepic', 'active', false), false)).toBe(ASK_ADMIN_TEXT);
    expect(unavailableReason(integration('qryn', 'suspended'), true)).toBe(PERMISSIONS_NEEDED_TEXT);
    expect(unavailableReason(integration('qryn', 'suspended'), false)).toBeNull();
    expect(unavailableReason(integration('qryn', 'trial'), true)).toBeNull();
  });

  it('access: not enabled or not listed → back to the stack; suspended/cancelled → warned; otherwise open', () => {
    expect(accessTo(undefined)).toEqual({ kind: 'redirect' });
    expect(accessTo(integration('grafana', 'active', false))).toEqual({ kind: 'redirect' });
    expect(accessTo(integration('hepic', 'trial', false))).toEqual({ kind: 'redirect' });
    expect(accessTo(integration('qryn', 'suspended'))).toMatchObject({ kind: 'warn', message: "You're trying to access suspended product", description: expect.stringContaining('payment method') });
    expect(accessTo(integration('qryn', 'cancelled_by_user'))).toMatchObject({ kind: 'warn', message: "You're trying to access cancelled product" });
    expect(accessTo(integration('qryn', 'scheduled_for_cancellation'))).toEqual({ kind: 'open' });
    expect(accessTo(integration('grafana', 'trial', true))).toEqual({ kind: 'open' });
  });

  it('texts: trial badge and document titles', () => {
    expect(trialText(1)).toBe('Trial period: 1 day left');
    expect(trialText(14)).toBe('Trial period: 14 days left');
    expect(productDocumentTitle('Grafana', 'Overview')).toBe('Grafana Overview');
  });
});
