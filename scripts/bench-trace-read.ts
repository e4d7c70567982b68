import { mkdtemp, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run bench:trace-read`: the trace read (/api/traces/{id}, JSON and protobuf) of one large trace, with
// and without span events, on a qryn instance of a platform started here. The trace read takes each span's events
// from the stored span (payload), so this shows what reading them costs. Prints the median and slowest answer time
// and the answer's size. BENCH_SPANS spans per trace (default 5,000), BENCH_EVENTS events per span (default 3),
// BENCH_RUNS reads per case (default 10).

// BENCH_SMOKE=1: a second's run (200 spans, 2 reads per case) so that CI notices when the script breaks.
const SMOKE = process.env.BENCH_SMOKE === '1';
const SPANS = Number(process.env.BENCH_SPANS ?? (SMOKE ? 200 : 5_000));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? (SMOKE ? 2 : 10));

async function main() {
  const { loadConfig } = await import('../server/config');
  const { startPlatform } = await import('../server/platform');
  const { enableQrynOnSeededProject } = await import('../tests/support/qryn');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-trace-read-'));
  const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', DEV_PAGES: 'false' }), { quiet: true, seed: true });
  try {
    const { qryn } = await enableQrynOnSeededProject(platform, 'Acme Production');
    const headers = { authorization: qryn.basic, 'content-type': 'application/json' };
    const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
    const start = BigInt(Date.now() - 30 * 60_000) * 1_000_000n;

    const pushTrace = async (events: number): Promise<string> => {
      const traceId = randomBytes(16).toString('hex');
      const root = randomBytes(8).toString('hex');
      for (let from = 0; from < SPANS; from += 1_000) {
        const spans = Array.from({ length: Math.min(1_000, SPANS - from) }, (_, k) => {
          const s = from + k;
          const t = start + BigInt(s) * 1_000_000n;
          return {
            traceId,
            spanId: s === 0 ? root : randomBytes(8).toString('hex'),
            ...(s === 0 ? {} : { parentSpanId: root }),
            name: s % 2 ? 'db query' : 'cache get',
            kind: 3,
            startTimeUnixNano: String(t),
            endTimeUnixNano: String(t + 2_000_000n),
            attributes: [str('http.route', `/api/v1/items/${s % 50}`), str('db.system', 'postgres')],
            events: Array.from({ length: events }, (_, e) => ({ timeUnixNano: String(t + BigInt(e) * 500_000n), name: `step ${e}`, attributes: [str('detail', `attempt ${e} of span ${s}`)] })),
          };
        });
        const body = JSON.stringify({ resourceSpans: [{ resource: { attributes: [str('service.name', 'bench')] }, scopeSpans: [{ spans }] }] });
        const response = await fetch(`${qryn.url}/v1/traces`, { method: 'POST', headers, body });
        if (!response.ok) throw new Error(`push answered ${response.status}: ${await response.text()}`);
      }
      return traceId;
    };

    const cases = [
      { label: 'no events', traceId: await pushTrace(0) },
      { label: `${EVENTS} events per span`, traceId: await pushTrace(EVENTS) },
    ];
    console.log(`trace read of one trace of ${SPANS} spans, ${RUNS} runs each:`);
    console.log('| trace | answer | median ms | max ms | bytes |');
    console.log('| --- | --- | ---: | ---: | ---: |');
    for (const c of cases) {
      for (const accept of ['application/json', 'application/protobuf']) {
        const times: number[] = [];
        let bytes = 0;
        for (let r = 0; r < RUNS; r++) {
          const started = performance.now();
          const response = await fetch(`${qryn.url}/api/traces/${c.traceId}`, { headers: { authorization: qryn.basic, accept } });
          if (!response.ok) throw new Error(`trace read answered ${response.status}`);
          bytes = (await response.arrayBuffer()).byteLength;
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        console.log(`| ${c.label} | ${accept.split('/')[1]} | ${times[Math.floor(times.length / 2)].toFixed(0)} | ${times[times.length - 1].toFixed(0)} | ${bytes} |`);
      }
    }
  } finally {
    await platform.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
