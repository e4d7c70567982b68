import { describe, expect, it } from 'vitest';
import type { AreaId } from '../../src/app/route-paths';
import { buildSidebar, visibleIntegrations, type SidebarInput } from '../../src/views/shell/sidebar-model';

const integration = (slug: string, status = 'active', isUserActive = true) => ({ status, isUserActive, product: { name: slug.toUpperCase(), slug } });
const allAreas = (_: AreaId) => true;
const input: SidebarInput = {
  projectSlug: 'web-1',
  integrations: [],
  organizationId: 3,
  organizations: [
    { id: 3, name: 'Acme', readOnly: false },
    { id: 4, name: 'Viewers Inc', readOnly: true },
  ],
  hideBilling: false,
  hasArea: allAreas,
  supportEmail: 'support@example.com',
  docsUrl: 'https://docs.example.com',
};

describe('sidebar visibility rules', () => {
  it('hides Hepic and Grafana unless the user is in their user list, and cancelled integrations', () => {
    const visible = visibleIntegrations([
      integration('qryn'),
      integration('hepic', 'active', false),
      integration('grafana', 'trial', false),
      integration('grafana', 'active', true),
      integration('clickhouse', 'cancelled_by_user'),
      integration('loggen', 'suspended', false),
    ]);
    expect(visible.map((item) => `${item.product.slug}:${item.status}`)).toEqual(['qryn:active', 'grafana:active', 'loggen:suspended']);
  });

  it('links integrations to the stack only when the stack area is registered', () => {
    const withStack = buildSidebar({ ...input, integrations: [integration('qryn')] });
    expect(withStack.integrations[0]?.href).toBe('/web-1/stack/qryn');
    const withoutStack = buildSidebar({ ...input, integrations: [integration('qryn')], hasArea: (id) => id !== 'stack' });
    expect(withoutStack.integrations[0]?.href).toBeNull();
  });

  it('disables project links when no project is selected', () => {
    expect(buildSidebar({ ...input, projectSlug: null }).settings?.disabled).toBe(true);
    expect(buildSidebar(input).settings).toMatchObject({ href: '/web-1/settings', disabled: false });
  });

  it('hides Billing only when the billing flag is on', () => {
    expect(buildSidebar(input).accountLinks.map((link) => link.id)).toContain('billing');
    expect(buildSidebar({ ...input, hideBilling: true }).accountLinks.map((link) => link.id)).not.toContain('billing');
  });

  it('a read-only organization hides Settings, Organization and Create organization', () => {
    const model = buildSidebar({ ...input, organizationId: 4 });
    expect(model.readOnly).toBe(true);
    expect(model.settings).toBeNull();
    expect(model.accountLinks.map((link) => link.id)).not.toContain('organization');
    expect(model.createOrganization).toBeNull();
  });

  it('hides links to areas that are not registered', () => {
    const model = buildSidebar({ ...input, hasArea: () => false });
    expect(model.settings).toBeNull();
    expect(model.accountLinks).toEqual([]);
    expect(model.createOrganization).toBeNull();
  });

  it('offers the personal account and each organization, marking the current one', () => {
    const model = buildSidebar(input);
    expect(model.switchAccount).toEqual([
      { id: 'personal', label: 'Personal account', href: '/login?personalAccount', current: false },
      { id: 'organization-3', label: 'Acme', href: '/login?organization=3', current: true },
      { id: 'organization-4', label: 'Viewers Inc', href: '/login?organization=4', current: false },
    ]);
  });

  it('keeps account links inside the selected project and uses mailto for support', () => {
    const model = buildSidebar(input);
    expect(model.accountLinks.find((link) => link.id === 'account')?.href).toBe('/web-1/account');
    expect(model.support.href.startsWith('mailto:support@example.com')).toBe(true);
  });
});
