// The browser walk of the shown machine, beside its chart: how much of it its last run walked in the real browser
// (states, transitions, paths played of those generated) and why the rest is left to the jsdom model test. Read
// from the snapshot the walk writes and the repository commits (docs/statecharts/browser-coverage/<machine>.json,
// described in docs/statecharts/browser-coverage/README.md), so the studio of any build shows the last committed run.
import { useEffect, useState, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Alert } from '../../components/ui/alert';
import { Skeleton } from '../../components/ui/spinner';

export interface BrowserCoverageSnapshot {
  machine: string;
  date: string;
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
  paths: { generated: number; view: number };
  reasons?: Record<string, string>;
}

type Loader = () => Promise<unknown>;

// Lazy: the studio loads one machine's record when it shows that machine.
const snapshots: Record<string, Loader> = import.meta.glob('../../../docs/statecharts/browser-coverage/*.json', { import: 'default' });

/** The snapshot loader of a machine, or undefined when no walk of it has been recorded. */
export function browserCoverageLoader(machineId: string, files: Record<string, Loader> = snapshots): Loader | undefined {
  return Object.entries(files).find(([file]) => file.endsWith(`/${machineId}.json`))?.[1];
}

type Loaded = { status: 'loading' } | { status: 'none' } | { status: 'failed'; message: string } | { status: 'ready'; coverage: BrowserCoverageSnapshot };

function useBrowserCoverage(machineId: string, files?: Record<string, Loader>): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    const load = browserCoverageLoader(machineId, files);
    if (!load) {
      setLoaded({ status: 'none' });
      return undefined;
    }
    let live = true;
    setLoaded({ status: 'loading' });
    load().then(
      (coverage) => live && setLoaded({ status: 'ready', coverage: coverage as BrowserCoverageSnapshot }),
      (cause: unknown) => live && setLoaded({ status: 'failed', message: cause instanceof Error ? cause.message : String(cause) }),
    );
    return () => {
      live = false;
    };
  }, [machineId, files]);
  return loaded;
}

function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className={css({ color: 'fg.muted' })}>{term}</dt>
      <dd className={css({ fontVariantNumeric: 'tabular-nums', fontWeight: 'semibold' })}>{children}</dd>
    </div>
  );
}

/** What the reasons keep out of the walk, each reason once with what it keeps out. */
function byReason(coverage: BrowserCoverageSnapshot): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const id of [...coverage.states.missing, ...coverage.transitions.missing]) {
    const reason = coverage.reasons?.[id] ?? 'not walked';
    groups.set(reason, [...(groups.get(reason) ?? []), id]);
  }
  return [...groups];
}

export function BrowserCoveragePanel({ machineId, files }: { machineId: string; files?: Record<string, Loader> }) {
  const loaded = useBrowserCoverage(machineId, files);
  return (
    <section aria-labelledby="browser-coverage-title" className={css({ borderWidth: '1px', borderRadius: 'l3', p: '4', bg: 'bg.default', display: 'flex', flexDirection: 'column', gap: '2', minW: '0' })}>
      <h3 id="browser-coverage-title" className={css({ fontWeight: 'semibold' })}>
        Browser walk
      </h3>
      {loaded.status === 'loading' && <Skeleton height="6" aria-label="Loading the browser walk" />}
      {loaded.status === 'failed' && <Alert status="error" title="The browser walk's record could not be loaded">{loaded.message}</Alert>}
      {loaded.status === 'none' && (
        <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>No browser walk of this machine has been recorded: only its jsdom model test walks it.</p>
      )}
      {loaded.status === 'ready' && (
        <>
          <dl aria-label="Browser coverage" className={css({ display: 'flex', flexWrap: 'wrap', gap: '1 6', textStyle: 'sm' })}>
            <Figure term="States walked">
              {loaded.coverage.states.covered} of {loaded.coverage.states.total}
            </Figure>
            <Figure term="Transitions walked">
              {loaded.coverage.transitions.covered} of {loaded.coverage.transitions.total}
            </Figure>
            <Figure term="Paths played">
              {loaded.coverage.paths.view} of {loaded.coverage.paths.generated} generated
            </Figure>
            <Figure term="Last run">
              <time dateTime={loaded.coverage.date}>{loaded.coverage.date}</time>
            </Figure>
          </dl>
          {byReason(loaded.coverage).length > 0 && (
            <details>
              <summary className={css({ cursor: 'pointer', textStyle: 'sm' })}>Left to the jsdom model test, and why</summary>
              <ul className={css({ textStyle: 'xs', display: 'flex', flexDirection: 'column', gap: '2', mt: '2' })}>
                {byReason(loaded.coverage).map(([reason, ids]) => (
                  <li key={reason}>
                    <p>{reason}</p>
                    <p className={css({ fontFamily: 'mono', color: 'fg.muted', overflowWrap: 'anywhere' })}>{ids.join(', ')}</p>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}
