import http from 'node:http';
import https from 'node:https';
import type { StorageEndpoint } from './storage-server';
import { streamJsonRows, streamQuery, type StreamOptions } from './storage-stream';

// ClickHouse over its HTTP interface. 18.16 has no query parameters ({name:Type} came later), so every value that
// goes into SQL passes through literal(); rows go in as TabSeparated, which carries 64-bit integers exactly.

export class StorageError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** ClickHouse's error code (e.g. 60 unknown table, 427 bad regular expression), when it sent one. */
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

export interface StorageClient {
  readonly endpoint: StorageEndpoint;
  /**
   * A SELECT answered as JSONEachRow (64-bit integers arrive as strings), parsed line by line as the body arrives;
   * it runs under a query_id, so a `signal` that aborts kills it on the server.
   */
  query<T = Record<string, unknown>>(sql: string, options?: StreamOptions): Promise<T[]>;
  /** DDL and other statements without a result. */
  command(sql: string, options?: StatementOptions): Promise<void>;
  /** Inserts rows (values in column order) as TabSeparated; `options.settings` may name its `query_id`. */
  insert(table: string, columns: readonly string[], rows: readonly (readonly TsvValue[])[], options?: StatementOptions): Promise<void>;
  /**
   * Inserts rows already encoded as RowBinary: the only text-free way in, which keeps a Float64's exact bits (a
   * Prometheus stale marker is a NaN with a payload that TabSeparated's `nan` would lose).
   */
  insertRowBinary(table: string, columns: readonly string[], body: Uint8Array, options?: { queryId?: string }): Promise<void>;
  /** A SELECT answered in a binary format (`FORMAT RowBinary` is appended), for large reads; aborts with `signal`. */
  queryRowBinary(sql: string, signal?: AbortSignal): Promise<Buffer>;
  /**
   * A SELECT answered as JSONEachRow and read as it arrives, rows in batches (one per chunk of the body). It runs
   * under a query_id with the options' ClickHouse settings; leaving the loop early or aborting kills it on the server.
   */
  streamRows<T = Record<string, unknown>>(sql: string, options?: StreamOptions): AsyncGenerator<T[]>;
  /** A SELECT answered as RowBinary, the body chunk by chunk, stopped on the server as streamRows. */
  streamRowBinary(sql: string, options?: StreamOptions): AsyncGenerator<Uint8Array>;
}

/** What one statement carries beyond the endpoint's own settings (a read's also take StreamOptions). */
export interface StatementOptions {
  /** ClickHouse settings for this statement only (e.g. what a DDL statement needs that a stock profile forbids). */
  settings?: Record<string, string | number>;
  /** How long to wait for the answer, in ms (default: the endpoint's read timeout). */
  timeoutMs?: number;
}

export type TsvValue = string | number | bigint | boolean | readonly string[];

export function storageClient(endpoint: StorageEndpoint): StorageClient {
  const headers = { 'X-ClickHouse-User': endpoint.user, 'X-ClickHouse-Key': endpoint.password };
  const { base, settings } = splitEndpointUrl(endpoint.url);
  async function request(sql: string, body?: string | Uint8Array, signal?: AbortSignal, options: StatementOptions = {}): Promise<Response> {
    const own = new URLSearchParams(settings);
    for (const [key, value] of Object.entries(options.settings ?? {})) own.set(key, String(value));
    const query = own.toString();
    const url = body === undefined ? `${base}/${query ? `?${query}` : ''}` : `${base}/?${query ? `${query}&` : ''}query=${encodeURIComponent(sql)}`;
    const timeoutMs = options.timeoutMs ?? (body === undefined ? endpoint.timeouts?.readMs : endpoint.timeouts?.insertMs) ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response | undefined;
    for (let attempt = 0; !response; attempt++) {
      try {
        response = await fetch(url, { method: 'POST', headers, body: (body ?? sql) as BodyInit, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (timeout.aborted) throw new StorageError(`The storage server at ${base} did not answer within ${Math.round(timeoutMs / 1000)} s.`, 503, undefined);
        // ClickHouse closes an idle keep-alive connection after 3 s; a request sent on it just then fails before
        // the server read it ("other side closed"), so it is sent again (a few times: several idle connections may have been closed).
        const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
        if (attempt < 3 && cause?.code === 'UND_ERR_SOCKET') continue;
        throw new StorageError(`The storage server cannot be reached: ${error instanceof Error ? `${error.message}${cause ? ` (${String(cause)})` : ''}` : String(error)}`, 503, undefined);
      }
    }
    if (!response.ok) {
      const text = await response.text();
      const code = /Code: (\d+)/.exec(text);
      throw new StorageError(text.trim().slice(0, 500), response.status, code ? Number(code[1]) : undefined);
    }
    return response;
  }
  const send = async (sql: string, body?: string | Uint8Array, options?: StatementOptions) => (await request(sql, body, undefined, options)).text();
  const insertPost = postRaw(base, settings, headers, endpoint.timeouts?.insertMs ?? 60_000);
  return {
    endpoint,
    async query<T>(sql: string, options?: StreamOptions) {
      const rows: T[] = [];
      for await (const batch of streamJsonRows<T>({ endpoint, headers }, `${sql} FORMAT JSONEachRow`, options)) for (const row of batch) rows.push(row);
      return rows;
    },
    async command(sql, options) {
      await send(sql, undefined, options);
    },
    async insert(table, columns, rows, options) {
      if (rows.length === 0) return;
      let body = '';
      for (const row of rows) body += row.map(tsv).join('\t') + '\n';
      await send(`INSERT INTO ${table} (${columns.join(', ')}) FORMAT TabSeparated`, body, options);
    },
    async insertRowBinary(table, columns, body, options) {
      if (body.length === 0) return;
      await insertPost(`INSERT INTO ${table} (${columns.join(', ')}) FORMAT RowBinary`, body, options?.queryId);
    },
    async queryRowBinary(sql, signal) {
      const response = await request(`${sql} FORMAT RowBinary`, undefined, signal);
      return Buffer.from(await response.arrayBuffer());
    },
    streamRows: <T>(sql: string, options?: StreamOptions) => streamJsonRows<T>({ endpoint, headers }, `${sql} FORMAT JSONEachRow`, options),
    streamRowBinary: (sql, options) => streamQuery({ endpoint, headers }, `${sql} FORMAT RowBinary`, options),
  };
}

/**
 * The sample inserts (every push, group-committed) go through node:http on a keep-alive agent instead of fetch:
 * fetch pays per request for an abort signal, web streams and a Response object (~5% of the gateway's CPU in the
 * benchmark's profile, and part of the ~3 ms a push spent beyond a direct insert at one connection). These inserts
 * need none of that: no caller aborts them, and the answer is read only for its error text.
 */
function postRaw(base: string, settings: string, headers: Record<string, string>, timeoutMs: number) {
  const secure = base.startsWith('https:');
  // Without a cap a burst of pushes would open one socket each; the group commit keeps at most one insert per table
  // on its way, so a few sockets suffice and stay warm.
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: 16 }) : new http.Agent({ keepAlive: true, maxSockets: 16 });
  const send = secure ? https.request : http.request;
  const prefix = `${base}/?${settings ? `${settings}&` : ''}query=`;
  const once = (url: string, body: Uint8Array) =>
    new Promise<void>((resolve, reject) => {
      const req = send(url, { method: 'POST', agent, headers: { ...headers, 'content-length': body.length }, timeout: timeoutMs }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          res.resume();
          res.once('end', resolve);
          res.once('error', reject);
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('error', reject);
        res.once('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const code = /Code: (\d+)/.exec(text);
          reject(new StorageError(text.trim().slice(0, 500), status, code ? Number(code[1]) : undefined));
        });
      });
      req.once('timeout', () => req.destroy(Object.assign(new Error(`The storage server did not answer within ${Math.round(timeoutMs / 1000)} s.`), { code: 'ETIMEDOUT' })));
      req.once('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  return async (sql: string, body: Uint8Array, queryId?: string): Promise<void> => {
    const url = `${prefix}${encodeURIComponent(sql)}${queryId ? `&query_id=${encodeURIComponent(queryId)}` : ''}`;
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(url, body);
      } catch (error) {
        if (error instanceof StorageError) throw error;
        const e = error as NodeJS.ErrnoException & { reusedSocket?: boolean };
        // ClickHouse closes an idle keep-alive connection after 3 s; an insert written on it just then is reset
        // before the server read it, so it is sent again on a fresh socket (only then: a request on a new socket
        // that fails may have been stored, and is not repeated).
        if (attempt < 3 && e.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) continue;
        throw new StorageError(`The storage server cannot be reached: ${e.message}${e.code ? ` (${e.code})` : ''}`, 503, undefined);
      }
    }
  };
}

/**
 * An endpoint URL may carry ClickHouse settings as its query string (`http://host:8123/?insert_distributed_sync=1`):
 * they are sent with every statement. The settings travel with the URL wherever the endpoint goes (the PromQL
 * workers get only url, user and password), which is how a cluster's storage gets its settings everywhere.
 */
export function splitEndpointUrl(url: string): { base: string; settings: string } {
  const at = url.indexOf('?');
  const base = (at < 0 ? url : url.slice(0, at)).replace(/\/+$/, '');
  return { base, settings: at < 0 ? '' : url.slice(at + 1) };
}

/** A ClickHouse string literal. */
export function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A database or table name made only of the characters we generate ([a-z0-9_]). */
export function identifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a safe identifier: ${name}`);
  return name;
}

function tsvString(value: string): string {
  return value.replace(/[\\\t\n\r\0]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\0'));
}

function tsv(value: TsvValue): string {
  if (typeof value === 'string') return tsvString(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (value === Infinity) return 'inf';
    if (value === -Infinity) return '-inf';
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  // Array elements are quoted strings with ClickHouse's escapes; the array itself gets no second escaping layer.
  return `[${value.map((v) => `'${tsvString(v).replace(/'/g, "\\'")}'`).join(',')}]`;
}
