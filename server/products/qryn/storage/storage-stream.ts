import { randomUUID } from 'node:crypto';
import { StorageError, literal, splitEndpointUrl } from './storage-client';
import type { StorageEndpoint } from './storage-server';

// A SELECT read as ClickHouse sends it (its HTTP body chunk by chunk, never one string) and stopped on the server
// when nobody waits for it any more. ClickHouse 18.16 goes on with a query whose HTTP client went away, so every read
// carries a query_id and, when its signal aborts or its reader stops early, `KILL QUERY` is sent for that id to the
// entry server and to every node of a cluster (where the shards' parts of a distributed query run under other ids
// with the same initial_query_id).

export interface StreamOptions {
  signal?: AbortSignal;
  /** ClickHouse settings for this read, as URL parameters (read-settings.ts). */
  params?: string;
  /** More ClickHouse settings for this statement only (e.g. what a DDL statement needs that a stock profile forbids). */
  settings?: Record<string, string | number>;
  /** How long the storage may take before the read is given up as unavailable (default: the endpoint's read timeout). */
  timeoutMs?: number;
  /** The query's id; a fresh one when absent. */
  queryId?: string;
}

export interface StreamTarget {
  endpoint: StorageEndpoint;
  headers: Record<string, string>;
}

const KILL_TIMEOUT_MS = 5_000;
const UNSIGNALLED_TIMEOUT_MS = 60_000;

/** The body of `sql`'s answer, chunk by chunk; leaving the loop early or aborting kills the query. */
export async function* streamQuery(target: StreamTarget, sql: string, options: StreamOptions = {}): AsyncGenerator<Uint8Array> {
  const { base, settings } = splitEndpointUrl(target.endpoint.url);
  const queryId = options.queryId ?? `qryn-${randomUUID()}`;
  const extra = Object.entries(options.settings ?? {}).map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`);
  const query = [settings, `query_id=${encodeURIComponent(queryId)}`, options.params, ...extra].filter(Boolean).join('&');
  const controller = new AbortController();
  // The storage's own bound: the statement's, else the endpoint's read timeout (an existing ClickHouse: a stalled node
  // must not hold a client for a minute), else for a caller without a deadline of its own the client's usual bound.
  const boundMs = options.timeoutMs ?? target.endpoint.timeouts?.readMs ?? (options.signal ? undefined : UNSIGNALLED_TIMEOUT_MS);
  const bound = boundMs === undefined ? undefined : AbortSignal.timeout(boundMs);
  const signal = bound && options.signal ? AbortSignal.any([options.signal, bound]) : (options.signal ?? bound!);
  const abortReason = (): unknown =>
    // The bound is the storage not answering in time, not a caller's cancellation.
    bound?.aborted && !options.signal?.aborted
      ? new StorageError(`The storage server at ${base} did not answer within ${Math.round(boundMs! / 1000)} s.`, 503, undefined)
      : (signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) throw abortReason();
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  let sent = false;
  let response: Response | undefined;
  try {
    for (let attempt = 0; !response; attempt++) {
      try {
        sent = true;
        response = await fetch(`${base}/?${query}`, { method: 'POST', headers: target.headers, body: sql, signal: controller.signal });
      } catch (error) {
        if (signal.aborted) throw abortReason();
        const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
        // ClickHouse closes an idle keep-alive connection after 3 s; a request sent on it just then fails before the
        // server read it, so it is sent again (as storage-client.ts does).
        if (attempt < 3 && cause?.code === 'UND_ERR_SOCKET') continue;
        throw new StorageError(`The storage server cannot be reached: ${error instanceof Error ? error.message : String(error)}${cause?.code ? ` (${cause.code})` : ''}`, 503, undefined);
      }
    }
    if (!response.ok) {
      finished = true;
      const text = await response.text();
      throw storageErrorOf(text, response.status);
    }
    const reader = response.body!.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal.aborted) throw abortReason();
          throw new StorageError(`The storage server's answer broke off: ${error instanceof Error ? error.message : String(error)}`, 503, undefined);
        }
        if (chunk.done) {
          finished = true;
          return;
        }
        yield chunk.value;
        if (signal.aborted) throw abortReason();
      }
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!finished) {
      controller.abort();
      // Before the answer's head came the server may not have registered the query yet: the KILL is then repeated.
      if (sent) void killQuery(target, queryId, response === undefined);
    }
  }
}

/** The lines of `sql`'s JSONEachRow answer, parsed one by one as they arrive (the SQL must end in FORMAT JSONEachRow). */
export async function* streamJsonRows<T>(target: StreamTarget, sql: string, options: StreamOptions = {}): AsyncGenerator<T[]> {
  const decoder = new TextDecoder();
  // The start of a row still incomplete, in pieces: a long row (a whole array of lines) is joined once, not re-scanned
  // with every chunk.
  let pending: string[] = [];
  for await (const chunk of streamQuery(target, sql, options)) {
    const piece = decoder.decode(chunk, { stream: true });
    const last = piece.lastIndexOf('\n');
    if (last < 0) {
      pending.push(piece);
      continue;
    }
    const text = pending.join('') + piece;
    const end = text.length - piece.length + last;
    pending = [text.slice(end + 1)];
    const rows: T[] = [];
    let at = 0;
    while (at < end) {
      const next = text.indexOf('\n', at);
      rows.push(parseRow<T>(text.slice(at, next)));
      at = next + 1;
    }
    yield rows;
  }
  const rest = pending.join('') + decoder.decode();
  if (rest.trim() !== '') yield [parseRow<T>(rest)];
}

/** A JSONEachRow line; ClickHouse writes an error that happens after the first block into the body as text. */
function parseRow<T>(line: string): T {
  if (line.startsWith('{')) {
    try {
      return JSON.parse(line) as T;
    } catch {
      // falls through: the error text may follow a cut row on the same line
    }
  }
  throw storageErrorOf(line, 500);
}

export function storageErrorOf(text: string, status: number): StorageError {
  const code = /Code: (\d+)/.exec(text);
  return new StorageError(text.trim().slice(0, 500), status, code ? Number(code[1]) : undefined);
}


/**
 * Stops the query on every server it may run on. A KILL that arrives before the server registered the query finds
 * nothing, so with `repeat` it is sent again a few times until one finds it.
 */
export async function killQuery(target: StreamTarget, queryId: string, repeat = true): Promise<void> {
  const nodes = await clusterNodes(target.endpoint);
  const sql = `KILL QUERY WHERE query_id = ${literal(queryId)} OR initial_query_id = ${literal(queryId)} ASYNC FORMAT TabSeparated`;
  await Promise.all(
    nodes.map(async (url, index) => {
      // Only the entry server is asked again: the shards' parts end when the entry's query is killed.
      for (let attempt = 0; attempt < (index === 0 && repeat ? 5 : 1); attempt++) {
        try {
          const response = await fetch(`${url}/`, { method: 'POST', headers: target.headers, body: sql, signal: AbortSignal.timeout(KILL_TIMEOUT_MS) });
          const text = await response.text();
          if (!response.ok || text.trim() !== '') return;
        } catch {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
      }
    }),
  );
}

/** The base URLs a read's query may run on: the entry server first, then the cluster's other nodes. */
async function clusterNodes(endpoint: StorageEndpoint): Promise<string[]> {
  const entry = splitEndpointUrl(endpoint.url).base;
  const urls = [entry];
  const extra = endpoint.nodeUrls ?? (endpoint.cluster ? await endpoint.cluster.nodes().then((n) => n.map((e) => e.url), () => []) : []);
  for (const url of extra) {
    const base = splitEndpointUrl(url).base;
    if (!urls.includes(base)) urls.push(base);
  }
  return urls;
}
