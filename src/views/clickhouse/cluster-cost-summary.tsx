// The create page's cost summary: what the cluster would cost, line by line, from the price list the page reads
// (machines and disk types) and the contract's estimate (spec 001 §9), so the total is the one the spec defines.
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { HOURS_PER_MONTH, diskSizeBytes, estimateMonthlyCost, type UnitType } from '../../../contract/clickhouse';

export interface PricedMachine {
  title: string;
  monthlyCost: number;
}
export interface PricedDiskType {
  name: string;
  title: string;
  monthlyRatePrice: number;
}
export interface CostInput {
  machine: PricedMachine | undefined;
  shards: number;
  replicas: number;
  disks: readonly { name: string; type: string; size: number; unit_type: UnitType }[];
  diskTypes: readonly PricedDiskType[];
}
export interface CostLine {
  label: string;
  detail: string;
  monthly: number;
}
export interface CostBreakdown {
  lines: CostLine[];
  monthly: number;
  hourly: number;
}

const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** One line for the nodes and one per disk; the total is the contract's estimate, the hourly rate its 730th. */
export function costBreakdown(input: CostInput): CostBreakdown {
  const nodes = count(input.shards) * count(input.replicas);
  const lines: CostLine[] = [];
  if (input.machine) {
    lines.push({
      label: `${nodes} × ${input.machine.title}`,
      detail: `${count(input.shards)} shard${count(input.shards) === 1 ? '' : 's'} × ${count(input.replicas)} replica${count(input.replicas) === 1 ? '' : 's'}, $${input.machine.monthlyCost.toFixed(2)} each`,
      monthly: input.machine.monthlyCost * nodes,
    });
  }
  for (const disk of input.disks) {
    const type = input.diskTypes.find((t) => t.name === disk.type);
    const size = Number.isFinite(disk.size) && disk.size > 0 ? disk.size : 0;
    lines.push({
      label: `${disk.name || 'Unnamed disk'}: ${size} ${disk.unit_type === 'Binary' ? 'GiB' : 'GB'}`,
      detail: type?.title ?? disk.type,
      monthly: (type?.monthlyRatePrice ?? 0) * diskSizeBytes(size, disk.unit_type),
    });
  }
  const monthly = estimateMonthlyCost({
    machine: input.machine ? { monthly_cost: input.machine.monthlyCost } : undefined,
    shards: input.shards,
    replicas: input.replicas,
    disks: input.disks,
    diskTypes: input.diskTypes.map((t) => ({ name: t.name, monthly_rate_price: t.monthlyRatePrice })),
  });
  return { lines, monthly, hourly: monthly / HOURS_PER_MONTH };
}

const money = (n: number, digits = 2) => `$${n.toFixed(digits)}`;
const row = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: '3' });

/** The summary beside the form (under it on narrow screens); `children` is the submit area. */
export function CostSummary({ breakdown, children }: { breakdown: CostBreakdown; children?: ReactNode }) {
  return (
    <aside
      aria-labelledby="cost-summary-title"
      className={css({
        position: { lg: 'sticky' },
        top: { lg: '4' },
        display: 'flex',
        flexDirection: 'column',
        gap: '4',
        p: '5',
        bg: 'bg.default',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'l3',
        minW: '0',
      })}
    >
      <h3 id="cost-summary-title" className={css({ textStyle: 'md', fontWeight: 'semibold' })}>
        Estimated cost
      </h3>
      <ul aria-label="Cost breakdown" className={css({ display: 'flex', flexDirection: 'column', gap: '3', listStyle: 'none', p: '0', m: '0' })}>
        {breakdown.lines.map((line, i) => (
          <li key={i} className={css({ display: 'flex', flexDirection: 'column', gap: '0.5' })}>
            <span className={row}>
              <span className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>{line.label}</span>
              <span className={css({ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' })}>{money(line.monthly)}</span>
            </span>
            <span className={css({ textStyle: 'sm', color: 'fg.muted' })}>{line.detail}</span>
          </li>
        ))}
      </ul>
      <div className={css({ borderTopWidth: '1px', borderColor: 'border.default', pt: '3', display: 'flex', flexDirection: 'column', gap: '1' })}>
        <p aria-live="polite" className={row}>
          <span className={css({ fontWeight: 'semibold' })}>Total per month</span>
          <span data-testid="monthly-total" className={css({ fontWeight: 'semibold', textStyle: 'lg', fontVariantNumeric: 'tabular-nums' })}>
            {money(breakdown.monthly)}
          </span>
        </p>
        <p className={row}>
          <span className={css({ color: 'fg.muted' })}>Per hour</span>
          <span className={css({ color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>{money(breakdown.hourly, 3)}</span>
        </p>
        <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>Prices in USD, VAT included. Disks are billed per GB-month.</p>
      </div>
      {children}
    </aside>
  );
}
