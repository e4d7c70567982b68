import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

// `npm run tempo-examples -- <test_examples.yaml> [--url <instance url> --auth <Authorization header>]`: sends every
// query of Tempo's example list (grafana/tempo pkg/traceql/test_examples.yaml, fetched separately; not part of this
// repository) to a qryn instance over HTTP and prints, per section, how many were accepted (200) and refused (400).
// A query is sent to /api/search; one that search sends on to the metrics calls goes to /api/metrics/query_range.
// Without --url, a platform is started here with a fresh instance. `valid` should be accepted, `parse_fails`,
// `validate_fails` and `unsupported` refused; the queries answered otherwise are listed.

async function main() {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--url' && args[args.indexOf(a) - 1] !== '--auth');
  if (!file) throw new Error('usage: tempo-examples <test_examples.yaml> [--url <instance url> --auth <Authorization header>]');
  const sections = parse(await readFile(file, 'utf8')) as Record<string, string[] | null>;
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  let url = option('--url');
  let auth = option('--auth');
  let stop = async () => {};
  if (!url) {
    const { loadConfig } = await import('../server/config');
    const { startPlatform } = await import('../server/platform');
    const { enableQrynOnSeededProject } = await import('../tests/support/qryn');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'tempo-examples-'));
    const platform = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'test', DEV_PAGES: 'false' }), { quiet: true, seed: true });
    const { qryn } = await enableQrynOnSeededProject(platform, 'Acme Production');
    url = qryn.url;
    auth = qryn.basic;
    stop = async () => {
      await platform.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const headers = auth ? { authorization: auth } : undefined;
  const send = async (q: string): Promise<{ status: number; error: string }> => {
    const call = async (p: string) => {
      const response = await fetch(`${url}${p}?${new URLSearchParams({ q })}`, { headers });
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      return { status: response.status, error: body.error ?? '' };
    };
    const search = await call('/api/search');
    if (search.status === 400 && /metrics queries are answered by/.test(search.error)) return call('/api/metrics/query_range');
    return search;
  };
  try {
    const expectAccepted: Record<string, boolean> = { valid: true, parse_fails: false, validate_fails: false, unsupported: false };
    for (const [section, queries] of Object.entries(sections)) {
      if (!(section in expectAccepted) || !queries) continue;
      let accepted = 0;
      let refused = 0;
      const unexpected: string[] = [];
      for (const q of queries) {
        const { status, error } = await send(q);
        if (status === 200) accepted++;
        else if (status === 400) refused++;
        else unexpected.push(`${q}  → ${status} ${error}`);
        if ((status === 200) !== expectAccepted[section] && status < 500) unexpected.push(`${q}  → ${status} ${error}`);
      }
      console.log(`${section.padEnd(15)} ${String(queries.length).padStart(4)} queries: ${accepted} accepted, ${refused} refused`);
      for (const line of unexpected) console.log(`    ${line}`);
    }
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
