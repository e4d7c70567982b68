import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

// A real Prometheus (Debian's 2.42, installed by scripts/install-prometheus.sh) for reference comparisons: the binary
// in its own temp folder, no scrape targets, the remote-write receiver on, on a free loopback port. The evaluation
// interval is Prometheus' default (1m): it is the step of subqueries written without one (`x[5m:]`).

export const PROMETHEUS_BINARY = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';

export interface RunningPrometheus {
  url: string;
  stop(): Promise<void>;
}

export async function startPrometheus(): Promise<RunningPrometheus> {
  if (!existsSync(PROMETHEUS_BINARY)) throw new Error(`${PROMETHEUS_BINARY} is missing: run scripts/install-prometheus.sh (as root).`);
  const dir = await mkdtemp(path.join(tmpdir(), 'prometheus-ref-'));
  await writeFile(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n  evaluation_interval: 1m\nscrape_configs: []\n');
  let child: ChildProcess | undefined;
  let output = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    child = spawn(PROMETHEUS_BINARY, [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=warn',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += String(d)));
    child.stderr!.on('data', (d) => (output += String(d)));
    const url = `http://127.0.0.1:${port}`;
    const until = Date.now() + 15_000;
    while (Date.now() < until && child.exitCode === null) {
      try {
        if ((await fetch(`${url}/-/ready`)).ok) {
          const running = child;
          return {
            url,
            async stop() {
              if (running.exitCode === null) {
                const exited = new Promise((resolve) => running.once('exit', resolve));
                running.kill('SIGKILL');
                await exited;
              }
              await rm(dir, { recursive: true, force: true });
            },
          };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(`Prometheus did not start: ${output.slice(-2000)}`);
}
