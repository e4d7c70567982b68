// @vitest-environment jsdom
// The waterfall's span events: a span with events says how many in its button's name, shows a tick per event on its
// bar, and when opened (keyboard) lists them in time order with their time after the span's start, name and
// attributes; a span without events says so.
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { spansOf } from '../../src/services/qryn-traces';
import { TraceWaterfall } from '../../src/views/stack/qryn/explorer/traces/trace-waterfall';
import { installDomStubs } from '../console/organization/dom-stubs';

installDomStubs();
afterEach(cleanup);

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
// As /api/traces/{id} answers it: the root has two events (listed out of order), the child none.
const spans = spansOf({
  batches: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
      scopeSpans: [
        {
          spans: [
            {
              spanId: 'a1',
              name: 'POST /orders',
              startTimeUnixNano: '1764003000000000000',
              endTimeUnixNano: '1764003000200000000',
              events: [
                { timeUnixNano: '1764003000150000000', name: 'exception', attributes: [{ key: 'exception.type', value: { stringValue: 'Timeout' } }, { key: 'retries', value: { stringValue: '2' } }] },
                { timeUnixNano: '1764003000025000000', name: 'order validated', attributes: [] },
              ],
            },
            { spanId: 'b2', parentSpanId: 'a1', name: 'INSERT orders', startTimeUnixNano: '1764003000100000000', endTimeUnixNano: '1764003000200000000' },
          ],
        },
      ],
    },
  ],
});

describe('the waterfall’s span events', () => {
  it('opens a span with the keyboard and lists its events: time after the span’s start, name, attributes', async () => {
    const user = userEvent.setup();
    const { container } = render(<TraceWaterfall traceId={TRACE} spans={spans} />);
    const root = screen.getByRole('button', { name: 'checkout: POST /orders, 200ms, starts at +0µs, 1 child span, 2 events' });
    // One tick per event on the root's bar, at 25 ms and 150 ms of the trace's 200 ms.
    const ticks = [...container.querySelectorAll<HTMLElement>('[data-event-marker]')].map((t) => t.style.left);
    expect(ticks).toEqual(['75%', '12.5%']);
    expect(screen.queryByRole('region', { name: 'Events' })).toBeNull();
    root.focus();
    await user.keyboard('{Enter}');
    expect(root.getAttribute('aria-expanded')).toBe('true');
    const events = screen.getByRole('region', { name: 'Events' });
    const items = within(events).getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toBe('+25.0msorder validated');
    expect(items[1]).toContain('+150msexception');
    const attributes = within(events).getByRole('table', { name: 'Attributes of exception at +150ms' });
    expect(within(attributes).getAllByRole('row').map((r) => r.textContent)).toEqual(['exception.typeTimeout', 'retries2']);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('region', { name: 'Events' })).toBeNull();
  });

  it('a span without events names none and says so when opened', async () => {
    const user = userEvent.setup();
    render(<TraceWaterfall traceId={TRACE} spans={spans} />);
    const child = screen.getByRole('button', { name: 'checkout: INSERT orders, 100ms, starts at +100ms' });
    await user.click(child);
    expect(screen.getByText('No events on this span.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Events' })).toBeNull();
  });
});
