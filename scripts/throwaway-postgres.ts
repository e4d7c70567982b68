import { execFile, execFileSync } from 'node:child_process';
import { chmod, chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

// A PostgreSQL server of its own for a benchmark run when none is named: Debian's postgresql binaries (the same as
// scripts/ci-postgres.sh uses), a cluster in a fresh temp folder, trust authentication on 127.0.0.1 only, a free
// port. stop() shuts it down and deletes the folder. As root the server runs as the postgres user (initdb refuses
// root).

const run = promisify(execFile);

async function postgresBin(): Promise<string> {
  const root = '/usr/lib/postgresql';
  const versions = (await readdir(root).catch(() => [])).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`No PostgreSQL under ${root}: install Debian's postgresql (apt-get install postgresql).`);
  return path.join(root, versions[0], 'bin');
}

export async function startThrowawayPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const bin = await postgresBin();
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-postgres-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    await chown(dir, uid, gid);
  }
  await chmod(dir, 0o700);
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));
  const data = path.join(dir, 'data');
  const port = await freePort();
  await as(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  await as(path.join(bin, 'pg_ctl'), [
    '-D', data, '-l', path.join(dir, 'server.log'), '-w',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
