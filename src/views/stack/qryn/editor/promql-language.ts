// PromQL in the editor: Prometheus' own CodeMirror extension (@prometheus-io/codemirror-promql) with its client
// pointed at the instance's Prometheus API and the View's credential, so metric names, label names and values come
// from the instance, scoped by what is typed (its client sends match[] for the selector being written). Its own
// client-side linter is off: the errors underlined are the ones the instance's parser answered.
import { autocompletion } from '@codemirror/autocomplete';
import type { Extension } from '@codemirror/state';
import { PromQLExtension } from '@prometheus-io/codemirror-promql';
import { explorerHeaders } from '../../../../services/qryn-explorer';

export interface PromqlTarget {
  url: string;
  auth: string;
  /** How far back label names and values are looked up (the explorer's range). */
  lookbackMs: number;
}

/** The extension's client settings (it builds and caches its own HTTP client from them). */
export function promqlRemote(target: PromqlTarget) {
  const headers = new Headers(explorerHeaders(target.auth));
  return {
    url: new URL(target.url.replace(/\/$/, ''), globalThis.location?.origin ?? 'http://localhost').toString().replace(/\/$/, ''),
    httpMethod: 'GET' as const,
    requestHeaders: headers,
    lookbackInterval: target.lookbackMs,
    // A failed lookup only means fewer suggestions; the query's own run reports the instance's problems.
    httpErrorHandler: () => undefined,
  };
}

export function promql(target: PromqlTarget): { extension: Extension; destroy: () => void } {
  const promQL = new PromQLExtension().activateLinter(false).setComplete({ remote: promqlRemote(target), maxMetricsMetadata: 10_000 });
    // The extension gives the language's completion source; the completion UI is the editor's to add.
  return { extension: [promQL.asExtension(), autocompletion({ activateOnTyping: true })], destroy: () => promQL.destroy() };
}
