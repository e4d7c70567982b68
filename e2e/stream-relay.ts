// A relay between the page and the platform for streamed answers (NDJSON: one JSON value a line). The request gate
// hands it a held request (RequestGate.releaseVia, unseen by the page); the relay asks the real server at once and
// keeps the server's lines until the walk lets them through, so the page shows one chunk of a real stream for as
// long as a step needs while the work on the server goes on. Playwright can only answer a request whole, so a
// stream the page must see part of at a time cannot be held any other way.
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const WAIT_MS = 20_000;

/** One streamed answer on its way to the page. */
export class RelayedStream<T> {
  private readonly lines: string[] = [];
  private sent = 0;
  private upstreamEnded = false;
  private pageGone = false;
  private flowing = false;
  private wake: Array<() => void> = [];

  constructor(
    private readonly page: ServerResponse,
    private readonly upstream: ClientRequest,
  ) {
    // The page stopped reading (Stop, a read that wanted only the first line, the next path's load).
    page.on('close', () => {
      this.pageGone = true;
      upstream.destroy();
      this.notify();
    });
  }

  /** The server's answer, as it arrives; a non-stream answer (204, an error) goes to the page untouched. */
  receive(answer: IncomingMessage): void {
    // Ended by the relay itself (cut, close): nothing more to read.
    answer.on('error', () => undefined);
    const headers = { ...answer.headers };
    delete headers['content-length'];
    this.page.writeHead(answer.statusCode ?? 502, headers);
    if (!String(answer.headers['content-type']).includes('ndjson')) {
      answer.pipe(this.page);
      answer.on('end', () => ((this.upstreamEnded = true), this.notify()));
      return;
    }
    this.page.flushHeaders();
    let buffer = '';
    answer.setEncoding('utf8');
    answer.on('data', (text: string) => {
      buffer += text;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) this.lines.push(line);
      }
      this.forward();
      this.notify();
    });
    answer.on('end', () => {
      if (buffer.trim()) this.lines.push(buffer.trim());
      this.upstreamEnded = true;
      this.forward();
      this.notify();
    });
  }

  /** The server's chunks so far (sent to the page or not). */
  get chunks(): T[] {
    return this.lines.map((line) => JSON.parse(line) as T);
  }

  /** Lets the held chunks through up to and including the first that `until` accepts, then holds again. */
  async pass(until: (chunk: T) => boolean): Promise<T> {
    for (;;) {
      while (this.sent < this.lines.length) {
        const line = this.lines[this.sent++];
        this.page.write(`${line}\n`);
        if (until(JSON.parse(line) as T)) return JSON.parse(line) as T;
      }
      await this.changed(`no chunk of ${this.describe()} was what the walk waits for`);
    }
  }

  /**
   * The page reads the first chunk that `until` accepts as its first: the chunks before it are dropped, as if the
   * page had asked only then (for a read that takes only the first line of a stream).
   */
  async startAt(until: (chunk: T) => boolean): Promise<T> {
    for (;;) {
      while (this.sent < this.lines.length) {
        const line = this.lines[this.sent++];
        if (until(JSON.parse(line) as T)) {
          this.page.write(`${line}\n`);
          return JSON.parse(line) as T;
        }
      }
      await this.changed(`no chunk of ${this.describe()} was what the walk waits for`);
    }
  }

  /** Lets everything through from now on, to the stream's end; resolves with the last chunk. */
  async flow(): Promise<T> {
    this.flowing = true;
    this.forward();
    while (!this.upstreamEnded) await this.changed(`${this.describe()} did not end`, 30_000);
    const last = this.lines.at(-1);
    if (last === undefined) throw new Error(`${this.describe()} ended without a chunk`);
    return JSON.parse(last) as T;
  }

  /** Ends the page's answer here, after what it was let see, while the server still streams: a broken connection. */
  cut(): void {
    this.page.end();
    this.upstream.destroy();
  }

  /** Ends both sides (a path is over). */
  close(): void {
    if (!this.page.writableEnded) this.page.end();
    this.upstream.destroy();
  }

  private forward(): void {
    if (!this.flowing || this.pageGone) return;
    while (this.sent < this.lines.length) this.page.write(`${this.lines[this.sent++]}\n`);
    if (this.upstreamEnded && !this.page.writableEnded) this.page.end();
  }

  private describe(): string {
    return `the stream (${this.lines.length} chunks: ${this.lines.slice(-3).join(' ')})`;
  }

  private notify(): void {
    for (const wake of this.wake.splice(0)) wake();
  }

  private changed(timeoutMessage: string, timeoutMs = WAIT_MS): Promise<void> {
    if (this.pageGone) return Promise.reject(new Error(`the page closed ${this.describe()}`));
    if (this.upstreamEnded && !this.flowing) return Promise.reject(new Error(`${this.describe()} ended: ${timeoutMessage}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(timeoutMessage)), timeoutMs);
      this.wake.push(() => (clearTimeout(timer), resolve()));
    });
  }
}

/** The relay's server: each request it gets is asked of `upstream` (the platform) and becomes a RelayedStream. */
export class StreamRelay<T> {
  private readonly arrived: Array<RelayedStream<T>> = [];
  private readonly waiting: Array<(stream: RelayedStream<T>) => void> = [];
  private readonly open = new Set<RelayedStream<T>>();

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly origin: string,
  ) {}

  static async start<T>(upstream: string): Promise<StreamRelay<T>> {
    const target = new URL(upstream);
    let relay: StreamRelay<T> | undefined;
    const server = createServer((req, res) => {
      const headers = { ...req.headers, host: target.host };
      const forward = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers });
      const stream = new RelayedStream<T>(res, forward);
      forward.on('response', (answer) => stream.receive(answer));
      // Unreachable server; a stream the relay ended itself has already ended the page's answer.
      forward.on('error', () => void (res.writableEnded || res.destroy()));
      req.pipe(forward);
      relay!.arrive(stream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    relay = new StreamRelay<T>(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return relay;
  }

  private arrive(stream: RelayedStream<T>): void {
    this.open.add(stream);
    const waiter = this.waiting.shift();
    if (waiter) waiter(stream);
    else this.arrived.push(stream);
  }

  /** The next request that reaches the relay (ask before releasing it through the gate). */
  next(): Promise<RelayedStream<T>> {
    const ready = this.arrived.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no request reached the relay')), WAIT_MS);
      this.waiting.push((stream) => (clearTimeout(timer), resolve(stream)));
    });
  }

  /** Ends every stream still open (between paths). */
  closeAll(): void {
    for (const stream of this.open) stream.close();
    this.open.clear();
    this.arrived.splice(0);
  }

  async stop(): Promise<void> {
    this.closeAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
