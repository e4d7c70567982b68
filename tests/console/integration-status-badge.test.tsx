// @vitest-environment jsdom
// The one integration status badge (spec 000 §4): 'Trial period: N day(s) left' (red under 5 days), 'Loading...'
// while the trial days load and 'Error retrieving trial info' when they cannot be read; used by the overview, the
// stack page and (as its label) the sidebar's status dot.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const trialCalls: Array<{ slug: string; projectId: number }> = [];
let answer: () => Promise<{ remainingDays: number }>;
vi.mock('../../src/services/shell-reads', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getIntegrationTrial: (slug: string, projectId: number) => {
    trialCalls.push({ slug, projectId });
    return answer();
  },
}));

const { IntegrationStatusBadge, TRIAL_ERROR, TRIAL_LOADING } = await import('../../src/views/stack/integration-status-badge');

function renderBadge(status: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <IntegrationStatusBadge status={status} productSlug="qryn" projectId={7} />
    </QueryClientProvider>,
  );
}

describe('IntegrationStatusBadge', () => {
  beforeEach(() => {
    trialCalls.length = 0;
  });
  afterEach(cleanup);

  it("a trial reads 'Loading...' while its days load", () => {
    answer = () => new Promise(() => undefined);
    renderBadge('trial');
    expect(screen.getByText(TRIAL_LOADING)).toBeTruthy();
    expect(TRIAL_LOADING).toBe('Loading...');
    expect(trialCalls).toEqual([{ slug: 'qryn', projectId: 7 }]);
  });

  it('then its days left, red under 5 days', async () => {
    answer = async () => ({ remainingDays: 12 });
    renderBadge('trial');
    const badge = await screen.findByText('Trial period: 12 days left');
    answer = async () => ({ remainingDays: 1 });
    cleanup();
    renderBadge('trial');
    const red = await screen.findByText('Trial period: 1 day left');
    expect(red.className).not.toBe(badge.className);
    expect(screen.queryByText(/^Trial$/)).toBeNull();
  });

  it("says 'Error retrieving trial info' when the days cannot be read", async () => {
    answer = async () => {
      throw new Error('down');
    };
    renderBadge('trial');
    expect(await screen.findByText(TRIAL_ERROR)).toBeTruthy();
    expect(TRIAL_ERROR).toBe('Error retrieving trial info');
  });

  it('other statuses use the spec words and read no trial days', () => {
    renderBadge('active');
    renderBadge('scheduled_for_cancellation');
    expect(screen.getByText('Subscription active')).toBeTruthy();
    expect(screen.getByText('Scheduled for cancellation')).toBeTruthy();
    expect(trialCalls).toEqual([]);
  });
});
