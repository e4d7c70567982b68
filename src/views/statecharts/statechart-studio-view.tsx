// /statecharts and /statecharts/{machine}: the statechart studio for QA engineers and designers. Every machine of
// the console (src/machines/machine-catalogue.ts) with its header comment; one machine drawn, stepped event by
// event from a fresh actor with harmless doubles, the paths its model test replays played step by step, and what
// its browser walk covered in its last recorded run.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { css, cx } from 'styled-system/css';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/spinner';
import { describeEvent, safeJson } from '../../lib/model-paths';
import { MACHINE_CATALOGUE, headerComment, type LoadedMachine, type MachineEntry } from '../../machines/machine-catalogue';
import { useDocumentTitle } from '../stack/use-document-title';
import { BrowserCoveragePanel } from './browser-coverage-panel';
import { StatechartDiagram } from './statechart-diagram';
import { machineCounts, purposeOf } from './statechart-graph';
import { samplesFor, useStudioSession } from './use-studio-session';

function useLoaded(entry: MachineEntry | undefined) {
  const [loaded, setLoaded] = useState<{ id: string; value: LoadedMachine } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!entry) return undefined;
    let live = true;
    setError(null);
    entry.load().then(
      (value) => live && setLoaded({ id: entry.id, value }),
      (cause: unknown) => live && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      live = false;
    };
  }, [entry]);
  return { loaded: loaded && entry && loaded.id === entry.id ? loaded.value : null, error };
}

function studioPath(projectSlug: string | undefined, machineId?: string): string {
  const base = projectSlug ? `/${projectSlug}/statecharts` : '/statecharts';
  return machineId ? `${base}/${machineId}` : base;
}

export function StatechartStudioView() {
  const params = useParams();
  const machineId = (params['*'] ?? '').replace(/\/$/, '');
  const entry = MACHINE_CATALOGUE.find((candidate) => candidate.id === machineId);
  useDocumentTitle(entry ? `${entry.title} · Statechart studio` : 'Statechart studio');
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
      <header>
        <h1 className={css({ textStyle: { base: '2xl', md: '3xl' }, fontWeight: 'semibold' })}>Statechart studio</h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>
          Every workflow of the console as its machine: read it, step it, and play the paths its tests replay.
        </p>
      </header>
      {machineId && (
        <nav aria-label="Machines">
          <ul className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
            {MACHINE_CATALOGUE.map((item) => (
              <li key={item.id}>
                <Link
                  to={studioPath(params.projectSlug, item.id)}
                  aria-current={item.id === machineId ? 'page' : undefined}
                  className={css({
                    display: 'inline-block',
                    px: '3',
                    py: '1.5',
                    borderWidth: '1px',
                    borderRadius: 'l2',
                    textStyle: 'sm',
                    _currentPage: { bg: 'colorPalette.solid', color: 'colorPalette.contrast', borderColor: 'colorPalette.solid' },
                    _hover: { borderColor: 'colorPalette.default' },
                  })}
                >
                  {item.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {machineId && !entry && <Alert status="warning" title="No such machine">There is no machine named “{machineId}”.</Alert>}
      {entry ? <MachinePanel key={entry.id} entry={entry} projectSlug={params.projectSlug} /> : !machineId && <MachineIndex projectSlug={params.projectSlug} />}
    </div>
  );
}

interface IndexRow {
  purpose: string;
  states: number;
  transitions: number;
}

const count = css({ fontVariantNumeric: 'tabular-nums', textAlign: 'right', whiteSpace: 'nowrap' });

/** Every machine in one row: its name (the link), what it is for, and the size of its chart. */
function MachineIndex({ projectSlug }: { projectSlug: string | undefined }) {
  const [rows, setRows] = useState<Record<string, IndexRow | 'failed'>>({});
  useEffect(() => {
    let live = true;
    for (const entry of MACHINE_CATALOGUE) {
      entry.load().then(
        (loaded) => live && setRows((current) => ({ ...current, [entry.id]: { purpose: purposeOf(headerComment(loaded.source)), ...machineCounts(loaded.machine) } })),
        () => live && setRows((current) => ({ ...current, [entry.id]: 'failed' })),
      );
    }
    return () => {
      live = false;
    };
  }, []);
  return (
    <ul
      aria-label="Machine descriptions"
      className={css({ display: 'flex', flexDirection: 'column', listStyle: 'none', p: '0', m: '0', bg: 'bg.default', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'l3', overflow: 'hidden' })}
    >
      {MACHINE_CATALOGUE.map((entry) => {
        const row = rows[entry.id];
        return (
          <li
            key={entry.id}
            aria-label={entry.title}
            className={css({
              display: 'grid',
              gridTemplateColumns: { base: 'minmax(0, 1fr) auto', md: 'minmax(12rem, 16rem) minmax(0, 1fr) auto' },
              gap: { base: '1 4', md: '4' },
              alignItems: 'baseline',
              px: '4',
              py: '3',
              borderTopWidth: '1px',
              borderColor: 'border.subtle',
              _first: { borderTopWidth: '0' },
              _hover: { bg: 'bg.subtle' },
            })}
          >
            <Link to={studioPath(projectSlug, entry.id)} className={css({ fontWeight: 'semibold', color: 'colorPalette.text', textDecoration: 'underline', textUnderlineOffset: '0.15em', overflowWrap: 'anywhere' })}>
              {entry.title}
            </Link>
            <span className={cx(count, css({ textStyle: 'sm', color: 'fg.muted', gridColumn: { md: '3' }, gridRow: { md: '1' } }))}>
              {row && row !== 'failed' ? `${row.states} states · ${row.transitions} transitions` : null}
            </span>
            <span data-testid="purpose" className={css({ textStyle: 'sm', color: 'fg.muted', gridColumn: { base: '1 / -1', md: '2' }, gridRow: { md: '1' }, minW: '0' })}>
              {row === undefined ? <Skeleton height="4" aria-label={`Loading ${entry.title}`} /> : row === 'failed' ? 'The machine could not be loaded.' : row.purpose}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function ScreenLink({ entry, projectSlug }: { entry: MachineEntry; projectSlug: string | undefined }) {
  if (entry.screen.project && !projectSlug) {
    return (
      <span>
        Screen: {entry.screen.label} (in a project: <Link to="/projects" className={css({ textDecoration: 'underline' })}>choose a project</Link>)
      </span>
    );
  }
  const to = entry.screen.project ? `/${projectSlug}/${entry.screen.path}` : `/${entry.screen.path}`;
  return (
    <span>
      Screen:{' '}
      <Link to={to} className={css({ color: 'colorPalette.text', textDecoration: 'underline' })}>
        {entry.screen.label}
      </Link>
    </span>
  );
}

function MachinePanel({ entry, projectSlug }: { entry: MachineEntry; projectSlug: string | undefined }) {
  const { loaded, error } = useLoaded(entry);
  if (error) return <Alert status="error" title="The machine could not be loaded">{error}</Alert>;
  if (!loaded) return <Skeleton height="64" aria-label={`Loading ${entry.title}`} />;
  return (
    <section aria-labelledby="machine-title" className={css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '4', alignItems: 'baseline', justifyContent: 'space-between' })}>
        <h2 id="machine-title" className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>
          {entry.title} <code className={css({ textStyle: 'sm', color: 'fg.muted' })}>{loaded.machine.id}</code>
        </h2>
        <ScreenLink entry={entry} projectSlug={projectSlug} />
      </div>
      <details>
        <summary className={css({ cursor: 'pointer', fontWeight: 'medium' })}>Header comment</summary>
        <pre className={css({ whiteSpace: 'pre-wrap', textStyle: 'xs', color: 'fg.muted', mt: '2', fontFamily: 'mono' })}>{headerComment(loaded.source)}</pre>
      </details>
      <BrowserCoveragePanel machineId={entry.id} />
      <Stepper entry={entry} loaded={loaded} />
    </section>
  );
}

const panel = css({ borderWidth: '1px', borderRadius: 'l3', p: '4', bg: 'bg.default', display: 'flex', flexDirection: 'column', gap: '3', minW: '0' });
const panelTitle = css({ fontWeight: 'semibold' });
const code = css({ whiteSpace: 'pre-wrap', wordBreak: 'break-word', textStyle: 'xs', fontFamily: 'mono', bg: 'bg.subtle', p: '2', borderRadius: 'l2', maxH: '64', overflow: 'auto' });

function Stepper({ entry, loaded }: { entry: MachineEntry; loaded: LoadedMachine }) {
  const session = useStudioSession(loaded);
  const { snapshot, playback } = session;
  const active = new Set<string>(snapshot ? snapshot._nodes.map((node) => node.path.join('.')) : []);
  const [custom, setCustom] = useState('');
  const [customError, setCustomError] = useState<string | null>(null);
  const sendCustom = () => {
    try {
      const event = JSON.parse(custom) as { type?: unknown };
      if (!event || typeof event.type !== 'string') throw new Error('An event is a JSON object with a "type".');
      setCustomError(null);
      void session.perform(event as { type: string });
    } catch (cause) {
      setCustomError(cause instanceof Error ? cause.message : String(cause));
    }
  };
  return (
    <>
      <StatechartDiagram machine={loaded.machine} active={active} title={entry.title} />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
        <section aria-labelledby="step-title" className={panel}>
          <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2' })}>
            <h3 id="step-title" className={panelTitle}>Step</h3>
            <Button size="sm" variant="outline" onClick={session.reset}>
              Start again
            </Button>
          </div>
          <p className={css({ textStyle: 'sm' })}>
            State: <code data-testid="state-value">{snapshot ? safeJson(snapshot.value) : '…'}</code>
            {snapshot?.status === 'done' && ' (final)'}
          </p>
          {session.error && <Alert status="error" title="The step failed">{session.error}</Alert>}
          <div role="group" aria-label="Events the current state accepts" className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
            {session.accepted.length === 0 && <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>No event is accepted here.</p>}
            {session.accepted.flatMap((type) =>
              samplesFor(loaded, type).map((event) => (
                <Button
                  key={describeEvent(event)}
                  size="xs"
                  variant="subtle"
                  // A sample's JSON can be long: the button wraps it rather than widening the page.
                  className={css({ whiteSpace: 'normal', h: 'auto', minH: '8', py: '1', textAlign: 'start', overflowWrap: 'anywhere', maxW: 'full' })}
                  disabled={session.busy}
                  onClick={() => void session.perform(event)}
                >
                  {describeEvent(event)}
                </Button>
              )),
            )}
          </div>
          <label className={css({ display: 'flex', flexDirection: 'column', gap: '1', textStyle: 'sm' })}>
            Another event (JSON)
            <textarea
              value={custom}
              onChange={(e) => setCustom(e.target.value)}
              rows={2}
              placeholder='{"type": "retry"}'
              className={css({ fontFamily: 'mono', textStyle: 'xs', borderWidth: '1px', borderRadius: 'l2', p: '2', bg: 'bg.default' })}
            />
          </label>
          {customError && <p className={css({ color: 'fg.error', textStyle: 'sm' })}>{customError}</p>}
          <div>
            <Button size="xs" variant="outline" onClick={sendCustom} disabled={!custom.trim() || session.busy}>
              Send event
            </Button>
          </div>
          <h4 className={panelTitle}>Context</h4>
          <pre className={code} data-testid="context">{snapshot ? JSON.stringify(snapshot.context, null, 2) : ''}</pre>
          <h4 className={panelTitle}>Events so far</h4>
          <ol aria-label="Events so far" className={css({ textStyle: 'xs', fontFamily: 'mono', listStyle: 'decimal', pl: '5', overflowWrap: 'anywhere' })}>
            {session.history.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
          <h4 className={panelTitle}>Side effects (recorded, not run)</h4>
          <ol aria-label="Side effects" className={css({ textStyle: 'xs', fontFamily: 'mono', listStyle: 'decimal', pl: '5', overflowWrap: 'anywhere' })}>
            {session.effects.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="paths-title" className={panel}>
          <h3 id="paths-title" className={panelTitle}>Paths the tests replay</h3>
          {!loaded.samples && (
            <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>
              This machine's model test keeps its sample events to itself; move them to a samples file next to the machine to play
              its paths here. Step it by hand meanwhile.
            </p>
          )}
          {session.paths.error && <Alert status="error" title="The paths could not be generated">{session.paths.error}</Alert>}
          {playback && (
            <div role="status" aria-label="Path playback" className={css({ display: 'flex', flexDirection: 'column', gap: '2', borderWidth: '1px', borderRadius: 'l2', p: '3' })}>
              <p className={css({ textStyle: 'sm' })}>
                Step {playback.index} of {playback.path.steps.length - 1}
                {playback.index < playback.path.steps.length - 1 && (
                  <>
                    : next <code>{describeEvent(playback.path.steps[playback.index + 1].event)}</code>
                  </>
                )}
              </p>
              {playback.mismatch && <Alert status="error" title="The actor left the path">{playback.mismatch}</Alert>}
              <div>
                <Button size="sm" onClick={() => void session.nextPathStep()} disabled={session.busy || playback.index >= playback.path.steps.length - 1}>
                  Next step
                </Button>
              </div>
            </div>
          )}
          <ol aria-label="Paths" className={css({ display: 'flex', flexDirection: 'column', gap: '2', maxH: '96', overflow: 'auto' })}>
            {session.paths.paths.map((path, i) => (
              <li key={i} className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', textStyle: 'xs' })}>
                <Button size="xs" variant="outline" onClick={() => session.startPath(path)} aria-label={`Play path ${i + 1}`}>
                  Play
                </Button>
                <span className={css({ fontFamily: 'mono', wordBreak: 'break-word' })}>
                  <strong>{path.kind}</strong> {path.description}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}
