import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ClickhouseVersion } from '../../../contract/clickhouse';

// The ClickHouse versions a cluster can be created with: only what the back end that runs the servers can really
// start. The local provisioner runs the one clickhouse-server binary installed on the machine (Debian's 18.16 here),
// so it offers exactly that binary's version; the Kubernetes provisioner runs images, so it offers the versions an
// operator lists (CLICKHOUSE_KUBERNETES_VERSIONS). docs/clickhouse.md, "Versions".

export type RunCommand = (file: string, args: readonly string[]) => Promise<string>;

const runCommand: RunCommand = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: 5_000 }, (error, stdout) => (error ? reject(error) : resolve(String(stdout))));
  });

/** '18.16.1+ds-7.3+b2' (a Debian package version) → '18.16.1'; undefined when it does not start with x.y.z. */
export function upstreamVersion(packageVersion: string): string | undefined {
  return /^(?:\d+:)?(\d+\.\d+(?:\.\d+)*)/.exec(packageVersion.trim())?.[1];
}

/**
 * The version of the clickhouse-server binary at `bin`, read from the Debian package that installed it (the 18.16
 * binary has no --version option). None when the binary is missing or not from a package: then no version is
 * offered, and the create form says that clusters cannot be created here.
 */
export async function localClickhouseVersions(bin: string, run: RunCommand = runCommand): Promise<ClickhouseVersion[]> {
  if (!existsSync(bin)) return [];
  try {
    // "clickhouse-server: /usr/sbin/clickhouse-server"
    const owner = (await run('dpkg-query', ['-S', bin])).split(':')[0].trim();
    if (!owner) return [];
    const packageVersion = (await run('dpkg-query', ['-W', '-f', '${Version}', owner])).trim();
    const full = upstreamVersion(packageVersion);
    if (!full) return [];
    const name = full.split('.').slice(0, 2).join('.');
    return [
      {
        name,
        image_tag: `debian:${owner}=${packageVersion}`,
        description: `This installation runs ClickHouse ${full} from this machine's ${owner} package (${packageVersion}): the only version it can run.`,
      },
    ];
  } catch {
    return [];
  }
}

/**
 * The versions an operator offers on Kubernetes: `CLICKHOUSE_KUBERNETES_VERSIONS`, comma-separated `name=image`
 * pairs, e.g. `24.8=clickhouse/clickhouse-server:24.8.4.13,23.8=clickhouse/clickhouse-server:23.8.16.16`.
 * A pair without a name or an image stops the start with the setting's name.
 */
export function kubernetesClickhouseVersions(setting: string | undefined): ClickhouseVersion[] {
  if (!setting?.trim()) return [];
  return setting
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq > 0 ? pair.slice(0, eq).trim() : '';
      const image = eq > 0 ? pair.slice(eq + 1).trim() : '';
      if (!name || !image || /\s/.test(image)) {
        throw new Error(`CLICKHOUSE_KUBERNETES_VERSIONS: "${pair}" is not name=image (e.g. 24.8=clickhouse/clickhouse-server:24.8.4.13).`);
      }
      return { name, image_tag: image, description: `Runs the image ${image} on the operator's Kubernetes cluster.` };
    });
}

/** A version of `list` named by its image tag (what the create form sends) or its name (older clients, tests). */
export const findVersionIn = (list: readonly ClickhouseVersion[], tagOrName: string) => list.find((v) => v.image_tag === tagOrName || v.name === tagOrName);
