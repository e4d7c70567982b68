// The browser walks' stream relay (e2e/stream-relay.ts) between a client and a server that streams NDJSON: the client
// gets the server's chunks only as far as the walk lets them through, from a chosen chunk on, to the end, or until the
// relay breaks the connection; a non-stream answer passes untouched; a client that goes away ends the server's side.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StreamRelay } from '../../e2e/stream-relay';

interface Chunk {
  n: number;
}

let upstream: ReturnType<typeof createServer>;
let answers: ServerResponse[];
let nextAnswer: (res: ServerResponse) => void;
let relay: StreamRelay<Chunk>;

beforeEach(async () => {
  answers = [];
  nextAnswer = (res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.flushHeaders();
  };
  upstream = createServer((_req, res) => {
    nextAnswer(res);
    answers.push(res);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  relay = await StreamRelay.start<Chunk>(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});

afterEach(async () => {
  await relay.stop();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** A client of the relay that collects the lines it receives and tells when its answer ended. */
async function client() {
  const controller = new AbortController();
  const arrived = relay.next();
  const response = await fetch(`${relay.origin}/api/run?x=1`, { signal: controller.signal });
  const stream = await arrived;
  const lines: string[] = [];
  let ended = false;
  const reading = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (value) lines.push(...value.split('\n').filter(Boolean));
      if (done) break;
    }
    ended = true;
  })().catch(() => undefined);
  return { response, stream, lines, reading, abort: () => controller.abort(), ended: () => ended };
}

const write = (n: number) => answers.at(-1)!.write(`${JSON.stringify({ n })}\n`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
const until = async (check: () => boolean) => {
  while (!check()) await settle();
};

describe('stream relay', () => {
  it('lets chunks through up to the one the walk waits for, holds the rest, then lets all through to the end', async () => {
    const page = await client();
    write(1);
    write(2);
    write(3);
    expect(await page.stream.pass((c) => c.n >= 2)).toEqual({ n: 2 });
    await until(() => page.lines.length === 2);
    await settle();
    expect(page.lines).toEqual(['{"n":1}', '{"n":2}']);
    const last = page.stream.flow();
    write(4);
    answers.at(-1)!.end();
    expect(await last).toEqual({ n: 4 });
    await page.reading;
    expect(page.lines).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    expect(page.ended()).toBe(true);
  });

  it('starts the client at a chosen chunk, dropping those before it', async () => {
    const page = await client();
    write(0);
    write(1);
    write(2);
    expect(await page.stream.startAt((c) => c.n >= 1)).toEqual({ n: 1 });
    await until(() => page.lines.length === 1);
    await settle();
    expect(page.lines).toEqual(['{"n":1}']);
  });

  it('breaks the connection: the client’s answer ends while the server still streams, and the server sees it go', async () => {
    const page = await client();
    write(1);
    await page.stream.pass((c) => c.n === 1);
    const serverSide = answers.at(-1)!;
    page.stream.cut();
    await page.reading;
    expect(page.lines).toEqual(['{"n":1}']);
    expect(page.ended()).toBe(true);
    await until(() => serverSide.destroyed || serverSide.writableEnded || serverSide.closed);
  });

  it('ends the server’s side when the client goes away, and a wait on the stream then fails', async () => {
    const page = await client();
    write(1);
    const serverSide = answers.at(-1)!;
    page.abort();
    await expect(page.stream.pass(() => false)).rejects.toThrow(/closed/);
    await until(() => serverSide.closed);
  });

  it('passes an answer that is not a stream untouched', async () => {
    nextAnswer = (res) => {
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Loggen is already running' }));
    };
    const arrived = relay.next();
    const response = await fetch(`${relay.origin}/api/run`, { method: 'POST' });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: 'Loggen is already running' });
    await expect((await arrived).pass(() => true)).rejects.toThrow(/ended|closed/);
  });
});
