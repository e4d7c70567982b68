// The explorer's split view: the right pane's parameters in the address beside the left one's (the range and refresh
// shared), the LogQL query a span's "Logs for this span" opens, by the labels the instance's logs carry, and Zoom out.
import { describe, expect, it } from 'vitest';
import { closeRightPane, DEFAULT_EXPLORER_STATE, hasRightPane, readExplorerUrl, writeExplorerUrl } from '../../src/machines/qryn-explorer/explorer-url';
import type { LabelSource } from '../../src/views/stack/qryn/editor/label-source';
import { zoomedOut } from '../../src/views/stack/qryn/explorer/explorer-shell';
import { spanLogsQuery } from '../../src/views/stack/qryn/explorer/span-logs';

describe('the split view in the address', () => {
  it('keeps the right pane under right. names, the left pane and the shared range as they were', () => {
    const left = writeExplorerUrl(new URLSearchParams('limit=100'), { ...DEFAULT_EXPLORER_STATE, language: 'logql', query: '{app="a"}', range: { kind: 'relative', value: 'now-6h' } });
    expect(hasRightPane(left)).toBe(false);
    const both = writeExplorerUrl(left, { ...readExplorerUrl(left, 'right'), language: 'traceql', traceId: 'ABC' }, 'right');
    expect(both.get('right.language')).toBe('traces');
    expect(both.get('right.traceId')).toBe('ABC');
    expect(both.get('query')).toBe('{app="a"}');
    expect(both.get('limit')).toBe('100');
    expect(hasRightPane(both)).toBe(true);
    expect(readExplorerUrl(both, 'right')).toEqual({ ...DEFAULT_EXPLORER_STATE, language: 'traceql', traceId: 'abc', range: { kind: 'relative', value: 'now-6h' } });
    expect(readExplorerUrl(both, 'left')).toEqual(readExplorerUrl(left));
    expect(closeRightPane(both).toString()).toBe(left.toString());
  });

  it('writes the right pane language even when it is the default, so that the pane stays open', () => {
    const right = writeExplorerUrl(new URLSearchParams(), DEFAULT_EXPLORER_STATE, 'right');
    expect(right.toString()).toBe('right.language=metrics');
    expect(hasRightPane(right)).toBe(true);
  });
});

function source(labels: Record<string, string[]>, failing = false): LabelSource {
  return {
    names: async () => {
      if (failing) throw new Error('unreachable');
      return Object.keys(labels);
    },
    values: async (name) => labels[name] ?? [],
  };
}

const span = { traceId: '0af7651916cd43dd8448eb211c80319c', service: 'checkout', resource: [['service.name', 'checkout'], ['k8s.namespace.name', 'shop']] as [string, string][] };

describe("a span's logs", () => {
  it('goes by the trace id label when the logs carry one', async () => {
    expect(await spanLogsQuery(span, source({ traceID: [], service_name: ['checkout'] }))).toBe('{traceID="0af7651916cd43dd8448eb211c80319c"}');
  });

  it("goes by the label whose values hold the span's service, then keeps the lines with the trace id", async () => {
    expect(await spanLogsQuery(span, source({ service_name: ['other'], app: ['checkout'] }))).toBe('{app="checkout"} |= "0af7651916cd43dd8448eb211c80319c"');
    // A resource attribute written as a label.
    expect(await spanLogsQuery({ ...span, service: 'cart' }, source({ k8s_namespace_name: ['shop'] }))).toBe('{k8s_namespace_name="shop"} |= "0af7651916cd43dd8448eb211c80319c"');
  });

  it('falls back to service_name when no label matches or the labels cannot be read', async () => {
    expect(await spanLogsQuery(span, source({ job: ['batch'] }))).toBe('{service_name="checkout"} |= "0af7651916cd43dd8448eb211c80319c"');
    expect(await spanLogsQuery(span, source({}, true))).toBe('{service_name="checkout"} |= "0af7651916cd43dd8448eb211c80319c"');
  });
});

describe('zoom out', () => {
  it('doubles the range about its middle, but does not end after now', () => {
    expect(zoomedOut({ from: 10_000, to: 20_000 }, 100_000)).toEqual({ from: 5_000, to: 25_000 });
    expect(zoomedOut({ from: 90_000, to: 100_000 }, 100_000)).toEqual({ from: 80_000, to: 100_000 });
  });
});
