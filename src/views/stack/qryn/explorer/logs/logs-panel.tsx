// The explorer's logs (issue 26): the volume histogram by level above the lines of a log query, re-run whenever the
// shell's runId changes, and the live tail over the instance's tail WebSocket (on/off is the panel's own, not in the
// URL). The flows are the qryn-log-search and qryn-log-tail machines; the reads are src/services/qryn-logs.ts. How the
// lines show (wrap, prettify JSON, deduplication, order) is in the address (log-display.ts).
import { useActorRef, useSelector } from '@xstate/react';
import { TAIL_CLOSE_REVOKED, TAIL_CLOSE_TOKEN_EXPIRED } from '../../../../../../contract/qryn-tail';
import { useEffect, useMemo, useRef, type JSX } from 'react';
import { useSearchParams } from 'react-router';
import { css } from 'styled-system/css';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import { Alert } from '../../../../../components/ui/alert';
import { QueryErrorAlert, useReportQueryError } from '../query-error';
import { Button } from '../../../../../components/ui/button';
import { Field, NativeSelect } from '../../../../../components/ui/field';
import { Spinner } from '../../../../../components/ui/spinner';
import { qrynLogSearchMachine, type QrynLogSearchMachine } from '../../../../../machines/qryn-logs/qryn-log-search.machine';
import { MAX_TAIL_LINES, TAIL_FAILED, qrynLogTailMachine, type LogTailEvent, type QrynLogTailMachine, type TailRequest } from '../../../../../machines/qryn-logs/qryn-log-tail.machine';
import { InstanceReadError, addFilter, hasParser, instanceRead, logsTable, searchLogs, tailFrameLines, tailSocketWith, DEFAULT_LINE_LIMIT, type FilterEdit, type LogLine } from '../../../../../services/qryn-logs';
import { authorizationFor } from '../../../../../services/qryn-view';
import { exportName } from '../result-format';
import { TableExports } from '../table-exports';
import { DEDUP_STRATEGIES, DEFAULT_LOG_DISPLAY, displayedLines, readLogDisplay, writeLogDisplay, type DedupStrategy, type LogDisplay } from './log-display';
import { LogLines } from './log-lines';
import { LogVolumeChart } from './log-volume';

export interface ExplorerRange {
  from: number;
  to: number;
} // epoch milliseconds, already resolved from relative ranges

export interface LogsPanelProps {
  instanceUrl: string;
  auth: string;
  query: string;
  range: ExplorerRange;
  runId: number;
  onQueryChange: (query: string) => void;
  onOpenTrace: (traceId: string) => void;
  onCredentialRefused: () => void;
}

/** Grafana's "Line limit": how many lines a search asks for; `limit` in the address, 1,000 when absent. */
export const LINE_LIMITS = [100, 1000, 5000] as const;

export function lineLimitOf(value: string | null): number {
  const limit = Number(value);
  return (LINE_LIMITS as readonly number[]).includes(limit) ? limit : DEFAULT_LINE_LIMIT;
}

/** How long before now the tail's history starts (Loki sends the newest `limit` lines since then first). */
const TAIL_HISTORY_MS = 60_000;
/** The history of a reconnect: the most lines the instance sends at once. */
const TAIL_RESUME_LIMIT = 5_000;

/** The tail's socket as an actor: opens it, reports frames, closes it when the tail leaves `live`. */
export const tailSocketActor = fromCallback<LogTailEvent, TailRequest>(({ input, sendBack }) => {
  const seq = { n: input.keyFrom ?? 0 };
  let opened = false;
  let stopped = false;
  let socket: WebSocket | undefined;
  const listen = (ws: WebSocket) => {
    ws.onopen = () => {
      opened = true;
      sendBack({ type: 'tail.opened' });
    };
    ws.onmessage = (message) => {
      try {
        const lines = tailFrameLines(String(message.data), seq);
        if (lines.length > 0) sendBack({ type: 'tail.lines', lines });
      } catch {
        // A frame that is not Loki's tail answer is skipped.
      }
    };
    ws.onclose = (event) => {
      if (stopped) return;
      if (!opened) {
        // A browser does not see the handshake's status: ask the instance whether it refuses the credential.
        instanceRead(input.instanceUrl, input.auth, '/loki/api/v1/labels', {}).then(
          () => sendBack({ type: 'tail.failed', message: 'The live tail could not be opened: the instance refused the query or is at its limit of live tails.', refused: false }),
          (error: unknown) => sendBack({ type: 'tail.failed', message: error instanceof Error ? error.message : TAIL_FAILED, refused: error instanceof InstanceReadError && error.refused }),
        );
        return;
      }
      if (event.code === 1000 || event.code === 1001) sendBack({ type: 'tail.ended', reason: event.reason || 'The instance ended the live tail.' });
      else if (event.code === TAIL_CLOSE_TOKEN_EXPIRED) sendBack({ type: 'tail.expired' });
      else sendBack({ type: 'tail.failed', message: event.reason || TAIL_FAILED, refused: event.code === TAIL_CLOSE_REVOKED });
    };
  };
  // The sign-in's token is read (and refreshed) first: the socket carries the header's value in its subprotocol.
  void authorizationFor(input.auth).then((authorization) => {
    if (stopped) return;
    const { url, protocols } = tailSocketWith(input.instanceUrl, authorization, input.query, Date.now() - TAIL_HISTORY_MS);
    // A reconnect goes on from the newest line shown, with the largest history, so that no line in between is missed.
    const resumed = new URL(url);
    if (input.resumeFromNs) {
      resumed.searchParams.set('start', input.resumeFromNs);
      resumed.searchParams.set('limit', String(TAIL_RESUME_LIMIT));
    }
    socket = new WebSocket(resumed.toString(), protocols);
    listen(socket);
  });
  return () => {
    stopped = true;
    socket?.close(1000);
  };
});

/** The lines as the View's export. */
function LogExports({ lines, name }: { lines: LogLine[]; name: string }) {
  const table = useMemo(() => logsTable(lines), [lines]);
  return <TableExports table={table} name={name} />;
}

/** The display toggles: two switches and two choices, each a labelled native control (keyboard as the platform's). */
function LogDisplayControls({ display, onChange }: { display: LogDisplay; onChange: (display: LogDisplay) => void }) {
  const box = css({ display: 'inline-flex', gap: '1.5', alignItems: 'center', textStyle: 'sm', cursor: 'pointer' });
  return (
    <div role="group" aria-label="Line display" className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
      <label className={box}>
        <input type="checkbox" checked={display.wrap} onChange={(e) => onChange({ ...display, wrap: e.target.checked })} />
        Wrap lines
      </label>
      <label className={box}>
        <input type="checkbox" checked={display.prettify} onChange={(e) => onChange({ ...display, prettify: e.target.checked })} />
        Prettify JSON
      </label>
      <Field label="Deduplication" className={css({ minW: '32' })}>
        <NativeSelect value={display.dedup} onChange={(e) => onChange({ ...display, dedup: e.target.value as DedupStrategy })}>
          {DEDUP_STRATEGIES.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Order" className={css({ minW: '32' })}>
        <NativeSelect value={display.order} onChange={(e) => onChange({ ...display, order: e.target.value === 'oldest' ? 'oldest' : 'newest' })}>
          <option value="newest">Newest first</option>
          <option value="oldest">Oldest first</option>
        </NativeSelect>
      </Field>
    </div>
  );
}

function linesStatus(count: number, shown: { lines: unknown[]; duplicates: Map<string, number> }, display: LogDisplay, limit: number): string {
  if (count === 0) return 'No lines matched in this time range.';
  const folded = count - shown.lines.length;
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'line' : 'lines'}, ${display.order} first${folded > 0 ? ` (${folded.toLocaleString('en-US')} ${folded === 1 ? 'duplicate' : 'duplicates'} folded)` : ''}${count >= limit ? ` (the limit of ${limit.toLocaleString('en-US')}; narrow the query or the range for older ones)` : ''}.`;
}

function SearchResults({ actor, range, query, onFilter, onOpenTrace, instanceUrl, auth, display = DEFAULT_LOG_DISPLAY }: { actor: ActorRefFrom<QrynLogSearchMachine>; range: ExplorerRange; query: string; onFilter: (edit: FilterEdit) => void; onOpenTrace: (id: string) => void; instanceUrl: string; auth: string; display?: LogDisplay }) {
  const state = useSelector(actor, (s) => s);
  const { result, error } = state.context;
  const shown = useMemo(() => displayedLines(result?.lines ?? [], display), [result, display]);
  if (state.matches('idle')) return <p className={css({ color: 'fg.muted' })}>Run a log query to see its lines.</p>;
  if (state.matches('running')) return <Spinner size="lg" label="Reading the logs" />;
  if (state.matches('error')) {
    return (
      <QueryErrorAlert title="The log query failed" error={error ?? ''} query={query} />
    );
  }
  if (!result) return <></>;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      {result.volume ? (
        <LogVolumeChart volume={result.volume} range={range} />
      ) : (
        <p className={css({ textStyle: 'xs', color: 'fg.muted' })}>The volume could not be read: {result.volumeError}</p>
      )}
      <p className={css({ textStyle: 'sm', color: 'fg.muted' })} role="status">
        {linesStatus(result.lines.length, shown, display, result.limit)}
      </p>
      {result.lines.length > 0 && <LogExports lines={result.lines} name={exportName(query, instanceUrl, range.to)} />}
      <LogLines lines={shown.lines} duplicates={shown.duplicates} wrap={display.wrap} prettify={display.prettify} parsedQuery={hasParser(query)} onFilter={onFilter} onOpenTrace={onOpenTrace} context={{ instanceUrl, auth }} />
    </div>
  );
}

function TailResults({ actor, query, onFilter, onOpenTrace }: { actor: ActorRefFrom<QrynLogTailMachine>; query: string; onFilter: (edit: FilterEdit) => void; onOpenTrace: (id: string) => void }) {
  const state = useSelector(actor, (s) => s);
  const { lines, pending, dropped, error, closedReason } = state.context;
  let status: string;
  if (state.matches({ live: 'connecting' })) status = 'Connecting the live tail…';
  else if (state.matches({ live: 'streaming' })) status = `Live: ${lines.length.toLocaleString('en-US')} ${lines.length === 1 ? 'line' : 'lines'}, newest first.`;
  else if (state.matches({ live: 'paused' })) status = `Paused: ${pending.length.toLocaleString('en-US')} new ${pending.length === 1 ? 'line' : 'lines'} waiting.`;
  else if (state.matches('closed')) status = closedReason ? `The live tail was closed: ${closedReason}` : 'The live tail is stopped.';
  else status = 'The live tail failed.';
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <p role="status" className={css({ textStyle: 'sm', color: 'fg.muted' })}>
        {status}
        {dropped > 0 && ` ${dropped.toLocaleString('en-US')} ${dropped === 1 ? 'line was' : 'lines were'} dropped (only the newest ${MAX_TAIL_LINES.toLocaleString('en-US')} are kept).`}
      </p>
      {state.matches('failed') && (
        <Alert status="error" title="The live tail failed">
          {error}
        </Alert>
      )}
      <LogLines label="Live log lines" lines={lines} parsedQuery={hasParser(query)} onFilter={onFilter} onOpenTrace={onOpenTrace} />
    </div>
  );
}

/** The live tail's buttons: Start live tail; Pause/Resume and Stop while live. */
function TailControls({ actor, start }: { actor: ActorRefFrom<QrynLogTailMachine>; start: () => void }) {
  const state = useSelector(actor, (s) => s);
  const live = state.matches('live');
  return (
    <div className={css({ display: 'flex', gap: '2' })} role="group" aria-label="Live tail">
      {!live && (
        <Button size="sm" variant="outline" onClick={start}>
          {state.matches('off') ? 'Start live tail' : 'Restart live tail'}
        </Button>
      )}
      {state.matches({ live: 'streaming' }) && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'tail.pause' })}>
          Pause
        </Button>
      )}
      {state.matches({ live: 'paused' }) && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'tail.resume' })}>
          Resume
        </Button>
      )}
      {live && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'tail.stop' })}>
          Stop live tail
        </Button>
      )}
      {!state.matches('off') && !live && (
        <Button size="sm" variant="ghost" onClick={() => actor.send({ type: 'tail.dismiss' })}>
          Back to the search
        </Button>
      )}
    </div>
  );
}

export function LogsPanel(props: LogsPanelProps): JSX.Element {
  const { instanceUrl, auth, query, range, runId, onQueryChange, onOpenTrace } = props;
  // The callbacks change identity with every render of the shell; the machines read the latest through refs.
  const refusedRef = useRef(props.onCredentialRefused);
  refusedRef.current = props.onCredentialRefused;
  const search = useActorRef(
    qrynLogSearchMachine.provide({
      actors: { searchLogs: fromPromise(({ input, signal }) => searchLogs(input, signal)) },
      actions: { credentialRefused: () => refusedRef.current() },
    }),
  );
  const tail = useActorRef(
    qrynLogTailMachine.provide({
      actors: { tailSocket: tailSocketActor },
      actions: { credentialRefused: () => refusedRef.current() },
    }),
  );
  const [params, setParams] = useSearchParams();
  const limit = lineLimitOf(params.get('limit'));
  const setLimit = (value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (Number(value) === DEFAULT_LINE_LIMIT) next.delete('limit');
        else next.set('limit', value);
        return next;
      },
      { replace: true },
    );
  const latest = useRef({ instanceUrl, auth, query, range });
  latest.current = { instanceUrl, auth, query, range };
  useEffect(() => {
    const { instanceUrl: url, auth: credential, query: q, range: r } = latest.current;
    if (!q.trim()) return;
    // A refresh tick of the same query leaves a live tail alone (the tail is already newer than any search);
    // running another query leaves the tail for the search, as Grafana's Explore does.
    const tailing = tail.getSnapshot();
    if (tailing.matches('live') && tailing.context.request?.query === q) return;
    tail.send({ type: 'tail.dismiss' });
    search.send({ type: 'logs.run', request: { instanceUrl: url, auth: credential, query: q, range: r, limit } });
  }, [runId, search, tail, limit]);
  useReportQueryError(useSelector(search, (s) => (s.matches('error') ? s.context.error : null)));
  const tailState = useSelector(tail, (s) => s.value);
  const tailing = tailState !== 'off';
  const display = useMemo(() => readLogDisplay(params), [params]);
  const setDisplay = (next: LogDisplay) => setParams((prev) => writeLogDisplay(prev, next), { replace: true, preventScrollReset: true });
  const startTail = () => tail.send({ type: 'tail.start', request: { instanceUrl, auth, query } });
  const onFilter = (edit: FilterEdit) => onQueryChange(addFilter(query, edit));
  return (
    <section aria-label="Logs" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
        <Field label="Line limit" className={css({ minW: '28' })}>
          <NativeSelect value={String(limit)} onChange={(e) => setLimit(e.target.value)}>
            {LINE_LIMITS.map((n) => (
              <option key={n} value={n}>
                {n.toLocaleString('en-US')}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <TailControls actor={tail} start={startTail} />
        <LogDisplayControls display={display} onChange={setDisplay} />
      </div>
      {tailing ? (
        <TailResults actor={tail} query={query} onFilter={onFilter} onOpenTrace={onOpenTrace} />
      ) : (
        <SearchResults actor={search} range={range} query={query} onFilter={onFilter} onOpenTrace={onOpenTrace} instanceUrl={instanceUrl} auth={auth} display={display} />
      )}
    </section>
  );
}

export { SearchResults as LogSearchResults, TailResults as LogTailResults, TailControls as LogTailControls };
