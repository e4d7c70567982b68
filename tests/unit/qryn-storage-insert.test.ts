import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageError, storageClient } from '../../server/products/qryn/storage/storage-client';

// The sample inserts go over node:http on a keep-alive agent (not fetch): the body arrives whole with the
// credentials and the endpoint's settings, an error answer keeps ClickHouse's text and code, a kept-alive socket
// that the server closed is retried on a fresh one, and a request that failed on a fresh socket is not repeated.

interface Seen {
  url: string;
  user: string | undefined;
  body: Buffer;
  reused: boolean;
}

let server: http.Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

async function serve(answer: (seen: Seen, req: http.IncomingMessage, res: http.ServerResponse, index: number) => void) {
  const seen: Seen[] = [];
  const sockets = new WeakSet<object>();
  server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const entry = { url: req.url ?? '', user: req.headers['x-clickhouse-user'] as string | undefined, body: Buffer.concat(chunks), reused: sockets.has(req.socket) };
    sockets.add(req.socket);
    seen.push(entry);
    answer(entry, req, res, seen.length - 1);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server!.address() as AddressInfo).port;
  return { seen, url: `http://127.0.0.1:${port}/?insert_quorum=0` };
}

const ok = (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-length': 0 });
  res.end();
};

describe('storage client RowBinary inserts', () => {
  it('sends the body, the statement, the settings and the credentials, and reuses its connection', async () => {
    const { seen, url } = await serve((_s, _req, res) => ok(res));
    const client = storageClient({ url, user: 'writer', password: 'secret' });
    await client.insertRowBinary('db.log_samples', ['date', 'line'], Buffer.from([1, 2, 3]));
    await client.insertRowBinary('db.log_samples', ['date', 'line'], Buffer.from([4, 5]));
    expect(seen).toHaveLength(2);
    expect(seen[0].user).toBe('writer');
    expect([...seen[0].body]).toEqual([1, 2, 3]);
    expect([...seen[1].body]).toEqual([4, 5]);
    const query = new URL(seen[0].url, 'http://x').searchParams;
    expect(query.get('insert_quorum')).toBe('0');
    expect(query.get('query')).toBe('INSERT INTO db.log_samples (date, line) FORMAT RowBinary');
    expect(seen[1].reused).toBe(true);
  });

  it("fails with ClickHouse's message, status and code", async () => {
    const { url } = await serve((_s, _req, res) => {
      res.writeHead(500);
      res.end('Code: 60, e.displayText() = DB::Exception: Table db.log_samples doesn\'t exist.\n');
    });
    const client = storageClient({ url, user: 'u', password: 'p' });
    const error = await client.insertRowBinary('db.log_samples', ['line'], Buffer.from([1])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ status: 500, code: 60 });
    expect((error as Error).message).toContain("Table db.log_samples doesn't exist");
  });

  it('sends again, on a fresh socket, an insert whose kept-alive socket the server closed', async () => {
    const { seen, url } = await serve((_s, req, res, index) => {
      // The second request arrives on the kept-alive socket: it is dropped unanswered, as when ClickHouse closes
      // an idle connection just as a request is written on it.
      if (index === 1) req.socket.destroy();
      else ok(res);
    });
    const client = storageClient({ url, user: 'u', password: 'p' });
    await client.insertRowBinary('t', ['a'], Buffer.from([1]));
    await client.insertRowBinary('t', ['a'], Buffer.from([2]));
    expect(seen.map((s) => [s.body[0], s.reused])).toEqual([
      [1, false],
      [2, true],
      [2, false],
    ]);
  });

  it('does not repeat an insert that failed on a fresh socket, and fails with 503', async () => {
    const { seen, url } = await serve((_s, req) => req.socket.destroy());
    const client = storageClient({ url, user: 'u', password: 'p' });
    const error = await client.insertRowBinary('t', ['a'], Buffer.from([1])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ status: 503 });
    expect((error as Error).message).toMatch(/cannot be reached/);
    expect(seen).toHaveLength(1);
  });

  it('fails with 503 when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const client = storageClient({ url: `http://127.0.0.1:${port}`, user: 'u', password: 'p' });
    await expect(client.insertRowBinary('t', ['a'], Buffer.from([1]))).rejects.toMatchObject({ status: 503 });
  });
});
