import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTelemetryBatcher } from '../../src/services/telemetry';
import { routeShape } from '../../src/app/telemetry';
import { loginIntent } from '../../src/views/auth/login-intent';
import { trialBannerText } from '../../src/views/shell/trial-banner-text';
import { resolveTheme } from '../../src/lib/theme';

describe('/login intents', () => {
  it('switches to an organization or to the personal account', () => {
    expect(loginIntent(new URLSearchParams('organization=12'))).toEqual({ type: 'switch', organizationId: 12 });
    expect(loginIntent(new URLSearchParams('personalAccount'))).toEqual({ type: 'switch', organizationId: null });
  });
  it('sends an invitation to the invitation page with its code', () => {
    expect(loginIntent(new URLSearchParams('invitation=abc&organization_name=Acme'))).toEqual({ type: 'invitation', path: '/invitations?organization_name=Acme&code=abc' });
  });
  it('goes home otherwise, ignoring a malformed organization id', () => {
    expect(loginIntent(new URLSearchParams(''))).toEqual({ type: 'home' });
    expect(loginIntent(new URLSearchParams('organization=abc'))).toEqual({ type: 'home' });
  });
});

describe('trial banner', () => {
  it('states the remaining days and the flat price after the trial', () => {
    expect(trialBannerText(14)).toBe('Your organization trial ends in 14 days. After the trial, organization mode costs a flat $249/month.');
    expect(trialBannerText(1)).toContain('1 day.');
  });
});

describe('theme', () => {
  it('follows the system only when asked, dark otherwise by choice', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});

describe('telemetry batcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a batch every 250 ms', async () => {
    const send = vi.fn();
    const batcher = createTelemetryBatcher({ send });
    batcher.record({ name: 'a' });
    batcher.record({ name: 'b' });
    await vi.advanceTimersByTimeAsync(249);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0].map((item: { name: string }) => item.name)).toEqual(['a', 'b']);
  });

  it('sends at once when 50 items are queued', async () => {
    const send = vi.fn();
    const batcher = createTelemetryBatcher({ send });
    for (let index = 0; index < 50; index += 1) batcher.record({ name: `e${index}` });
    await vi.advanceTimersByTimeAsync(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]![0]).toHaveLength(50);
  });

  it('swallows failures of the collector', async () => {
    const send = vi.fn(() => Promise.reject(new Error('down')));
    const batcher = createTelemetryBatcher({ send });
    batcher.record({ name: 'a' });
    // An unhandled rejection would fail this test run.
    await vi.advanceTimersByTimeAsync(300);
    expect(send).toHaveBeenCalledTimes(1);
    batcher.record({ name: 'b' });
    await vi.advanceTimersByTimeAsync(300);
    expect(send).toHaveBeenCalledTimes(2);
  });
});

describe('telemetry page views', () => {
  it('keep only the route shape: no project names, no ids', () => {
    expect(routeShape('/acme-production-1/stack/clickhouse/7')).toBe('/:project/stack/clickhouse/:id');
    expect(routeShape('/projects')).toBe('/projects');
    expect(routeShape('/')).toBe('/');
  });
});
