import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  contentType: string;
  contentEncoding: string;
  status: number;
}

/**
 * A pass-through HTTP proxy that records each request's method, path and content type and the answer's status: to
 * see what a client library really sent (winston-loki falls back to JSON silently when snappy is missing).
 */
export async function startRecordingProxy(target: string): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const forward = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        requests.push({
          method: req.method ?? '',
          path: req.url ?? '',
          contentType: String(req.headers['content-type'] ?? ''),
          contentEncoding: String(req.headers['content-encoding'] ?? ''),
          status: answer.statusCode ?? 0,
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
