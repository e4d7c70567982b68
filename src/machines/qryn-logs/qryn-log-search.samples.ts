// Sample events of the explorer's log search machine: what its model test (tests/model/qryn-logs-search.test.tsx)
// replays and what the statechart studio plays. The answer is one error line with a trace id and one info line.
import type { ModelEvents, ModelSamples } from '../../lib/model-paths';
import type { LogSearchResult } from '../../services/qryn-logs';
import type { QrynLogSearchMachine } from './qryn-log-search.machine';

export const SAMPLE_LOG_REQUEST = { instanceUrl: 'http://127.0.0.1:8080/qryn/0123456789abcdef', auth: 'qk_key:secret', query: '{job="app"}', range: { from: 1_764_000_000_000, to: 1_764_003_600_000 } };
export const SAMPLE_LOG_RESULT: LogSearchResult = {
  lines: [
    { tsNs: '1764003000000000000', line: 'level=error msg="payment failed" traceID=4bf92f3577b34da6a3ce929d0e0e4736', labels: { job: 'app' }, level: 'error', key: 'a' },
    { tsNs: '1764002000000000000', line: '{"level":"info","msg":"started","user":"ann"}', labels: { job: 'app' }, level: 'info', key: 'b' },
  ],
  volume: { stepSeconds: 60, buckets: [{ t: 1_764_002_000_000, counts: { info: 1 } }, { t: 1_764_003_000_000, counts: { error: 1 } }], levels: ['error', 'info'], total: 2 },
  volumeError: null,
  limit: 1000,
};
export const SAMPLE_LOG_PARSE_ERROR = 'parse error at line 1, col 1: syntax error: unexpected IDENTIFIER';

export const qrynLogSearchEvents = {
  'logs.run': [{ type: 'logs.run', request: SAMPLE_LOG_REQUEST }, { type: 'logs.run', request: { ...SAMPLE_LOG_REQUEST, query: '  ' } }],
  'xstate.done.actor.searchLogs': [{ type: 'xstate.done.actor.searchLogs', output: SAMPLE_LOG_RESULT }],
  'xstate.error.actor.searchLogs': [
    { type: 'xstate.error.actor.searchLogs', error: Object.assign(new Error(SAMPLE_LOG_PARSE_ERROR), { status: 400 }) },
    { type: 'xstate.error.actor.searchLogs', error: Object.assign(new Error('The credentials are not valid for this instance.'), { status: 401 }) },
  ],
} satisfies ModelEvents<QrynLogSearchMachine>;

export const qrynLogSearchSamples: ModelSamples = {
  events: qrynLogSearchEvents,
  serializeContext: (context: { request: { query: string } | null; result: unknown; error: string | null }) => ({ q: context.request?.query ?? null, result: context.result !== null, error: context.error }),
};
