// @vitest-environment jsdom
// Hepic's Overview statistics: what the HEP endpoint dropped of this instance (its queue full while its storage
// was slow, or refused by the storage) and what waits to be written, beside the stored figures.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HepicStatisticsData } from '../../src/services/hepic';
import { StatisticsList } from '../../src/views/stack/hepic/hepic-area';

afterEach(cleanup);

const statistics = (overrides: Partial<HepicStatisticsData>): HepicStatisticsData => ({
  storageUsagePercentage: 1,
  storageUsageBytes: 1000,
  storageQuota: 10e9,
  rotationPointSec: null,
  packets: 42,
  shedPackets: 0,
  failedPackets: 0,
  queuedPackets: 0,
  ...overrides,
});

describe('Hepic statistics', () => {
  it('with nothing dropped: a Dropped row of 0 and no warning', () => {
    render(<StatisticsList statistics={statistics({})} />);
    expect(screen.getByTestId('statistic-Dropped').textContent).toBe('0');
    expect(screen.queryByTestId('statistic-Waiting to be stored')).toBeNull();
    expect(screen.queryByText(/were dropped/)).toBeNull();
  });

  it('shed and failed packets are counted and explained; waiting packets are shown', () => {
    render(<StatisticsList statistics={statistics({ shedPackets: 50_000, failedPackets: 12, queuedPackets: 900 })} />);
    expect(screen.getByTestId('statistic-Dropped').textContent).toBe('50,012');
    expect(screen.getByTestId('statistic-Waiting to be stored').textContent).toBe('900');
    const warning = screen.getByText(/were dropped/);
    expect(warning.textContent).toContain('50,000 because its storage could not keep up with the senders');
    expect(warning.textContent).toContain('12 refused by the storage');
    expect(warning.textContent).toContain('Other instances are not affected.');
  });
});
