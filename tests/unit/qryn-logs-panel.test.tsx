// @vitest-environment jsdom
// The logs and traces panels with the shell's props, against a fake fetch: a run reads lines and volume, a new
// runId aborts the read in flight, a refused credential calls onCredentialRefused, "Filter for value" hands the edited
// query to onQueryChange, "Show context" reads the stream around the line, a trace id link calls onOpenTrace, and the
// traces panel shows the waterfall of the traceId it is given.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogsPanel } from '../../src/views/stack/qryn/explorer/logs/logs-panel';
import { TracesPanel } from '../../src/views/stack/qryn/explorer/traces/traces-panel';
import { installDomStubs } from '../console/organization/dom-stubs';

installDomStubs();
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const ok = (data: unknown) => new Response(JSON.stringify({ status: 'success', data }));
const streams = (result: unknown) => ok({ resultType: 'streams', result });

interface Call {
  url: URL;
  signal?: AbortSignal;
}

function fakeFetch(answer: (url: URL) => Response | Promise<Response>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input);
    calls.push({ url, signal: init?.signal ?? undefined });
    return answer(url);
  });
  return calls;
}

const logAnswer = (url: URL) => {
  const q = url.searchParams.get('query')!;
  if (q.startsWith('sum by (level)')) return ok({ resultType: 'matrix', result: [{ metric: { level: 'error' }, values: [[1_764_003_000, '1']] }] });
  if (url.searchParams.get('direction') === 'forward') return streams([{ stream: { job: 'app' }, values: [['1764003000000000000', 'the line'], ['1764003001000000000', 'after 1']] }]);
  if (url.searchParams.get('limit') === '11') return streams([{ stream: { job: 'app' }, values: [['1764003000000000000', 'the line'], ['1764002999000000000', 'before 1']] }]);
  return streams([{ stream: { job: 'app' }, values: [['1764003000000000000', 'the line']] }, { stream: { job: 'app', level: 'error' }, values: [['1764002000000000000', `{"msg":"boom","user":"ann","traceId":"${TRACE}"}`]] }]);
};

const baseProps = { instanceUrl: 'http://h/qryn/0123456789abcdef', auth: 'key:secret', query: '{job="app"}', range: { from: 1_764_000_000_000, to: 1_764_003_600_000 } };

describe('LogsPanel', () => {
  it('runs on mount: volume and lines; filter for a parsed field edits the query; context and trace links', async () => {
    const calls = fakeFetch(logAnswer);
    const onQueryChange = vi.fn();
    const onOpenTrace = vi.fn();
    const user = userEvent.setup();
    // The panel reads its Line limit from the explorer's address.
    render(<LogsPanel {...baseProps} runId={1} onQueryChange={onQueryChange} onOpenTrace={onOpenTrace} onCredentialRefused={() => undefined} />, { wrapper: MemoryRouter });
    const list = await screen.findByRole('list', { name: 'Log lines' });
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^Log volume: 1 line in 1 step of 60s: 1 error\.$/);
    expect(calls.map((c) => c.url.searchParams.get('query'))).toEqual(['{job="app"}', 'sum by (level) (count_over_time({job="app"} | drop __error__ [60s]))']);
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-level'))).toEqual(['unknown', 'error']);

    await user.click(within(items[1]).getByRole('link', { name: `Open trace ${TRACE}` }));
    expect(onOpenTrace).toHaveBeenCalledWith(TRACE);

    await user.click(within(items[1]).getByRole('button', { name: /^Open the line of/ }));
    await user.click(screen.getByRole('button', { name: 'Filter for value user="ann"' }));
    expect(onQueryChange).toHaveBeenLastCalledWith('{job="app"} | json | user="ann"');
    await user.click(screen.getByRole('button', { name: 'Filter out value level="error"' }));
    expect(onQueryChange).toHaveBeenLastCalledWith('{job="app", level!="error"}');

    await user.click(within(items[0]).getByRole('button', { name: /^Open the line of/ }));
    await user.click(within(items[0]).getByRole('button', { name: 'Show context' }));
    const context = await screen.findByRole('region', { name: 'Context' });
    expect(within(context).getByRole('list', { name: 'Lines before' }).textContent).toContain('before 1');
    expect(within(context).getByRole('list', { name: 'Lines after' }).textContent).toContain('after 1');
    expect(within(context).getByRole('list', { name: 'Lines after' }).textContent).not.toContain('the line');
    // The line itself between them, marked as the current one.
    expect(within(context).getByLabelText('This line').getAttribute('aria-current')).toBe('true');
    const contextCalls = calls.filter((c) => c.url.searchParams.get('limit') === '11');
    expect(contextCalls.map((c) => c.url.searchParams.get('query'))).toEqual(['{job="app"}', '{job="app"}']);
  });

  it('a new runId aborts the read in flight; a refused credential calls onCredentialRefused', async () => {
    let release: (r: Response) => void = () => undefined;
    const calls = fakeFetch((url) => (url.searchParams.get('query') === '{job="slow"}' ? new Promise<Response>((resolve) => (release = resolve)) : new Response('The credentials are not valid for this instance.', { status: 401 })));
    const refused = vi.fn();
    const props = { ...baseProps, onQueryChange: () => undefined, onOpenTrace: () => undefined, onCredentialRefused: refused };
    const { rerender } = render(<LogsPanel {...props} query={'{job="slow"}'} runId={1} />, { wrapper: MemoryRouter });
    await waitFor(() => expect(calls).toHaveLength(2));
    rerender(<LogsPanel {...props} query={'{job="app"}'} runId={2} />);
    await waitFor(() => expect(refused).toHaveBeenCalledTimes(1));
    expect(calls[0].signal?.aborted).toBe(true);
    expect((await screen.findByRole('alert')).textContent).toContain('The credentials are not valid for this instance.');
    await act(async () => release(streams([])));
  });
});

describe('TracesPanel', () => {
  it('shows the waterfall of the traceId it is given, and Back calls onOpenTrace(null)', async () => {
    fakeFetch((url) => {
      if (url.pathname.endsWith(`/api/traces/${TRACE}`)) {
        return new Response(
          JSON.stringify({
            batches: [
              {
                resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] },
                scopeSpans: [{ spans: [{ spanId: 'a', name: 'root', startTimeUnixNano: '1000000000', endTimeUnixNano: '1100000000' }, { spanId: 'b', parentSpanId: 'a', name: 'child', startTimeUnixNano: '1010000000', endTimeUnixNano: '1050000000' }] }],
              },
            ],
          }),
        );
      }
      return new Response(JSON.stringify({ traces: [] }));
    });
    const onOpenTrace = vi.fn();
    const user = userEvent.setup();
    render(<TracesPanel {...baseProps} query="{}" runId={1} traceId={TRACE} onOpenTrace={onOpenTrace} onCredentialRefused={() => undefined} />);
    const spans = await screen.findByRole('list', { name: 'Spans' });
    expect(within(spans).getByRole('button', { name: 'checkout: root, 100ms, starts at +0µs, 1 child span' })).toBeTruthy();
    expect(within(spans).getByRole('button', { name: 'checkout: child, 40.0ms, starts at +10.0ms' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back to the trace results' }));
    expect(onOpenTrace).toHaveBeenCalledWith(null);
  });
});
