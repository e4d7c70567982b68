import { describe, expect, it } from 'vitest';
import { kubernetesClickhouseVersions, localClickhouseVersions, upstreamVersion, type RunCommand } from '../../server/products/clickhouse/clickhouse-versions';
import { CLICKHOUSE_SERVER_BIN } from '../../server/products/clickhouse/local-provisioner';

// The versions offered are what the back end can run: the local binary's package, or the operator's images.
describe('ClickHouse versions', () => {
  it('reads the upstream version of a Debian package version', () => {
    expect(upstreamVersion('18.16.1+ds-7.3+b2')).toBe('18.16.1');
    expect(upstreamVersion('1:24.8.4.13-1')).toBe('24.8.4.13');
    expect(upstreamVersion('unknown')).toBeUndefined();
  });

  it('offers the version of the package that installed the local binary, named by its minor release', async () => {
    const calls: string[][] = [];
    const run: RunCommand = async (file, args) => {
      calls.push([file, ...args]);
      return args[0] === '-S' ? 'clickhouse-server: /usr/sbin/clickhouse-server\n' : '21.3.2+ds-1';
    };
    // Any existing file stands in for the binary.
    const versions = await localClickhouseVersions(process.execPath, run);
    expect(versions).toEqual([{ name: '21.3', image_tag: 'debian:clickhouse-server=21.3.2+ds-1', description: expect.stringContaining('ClickHouse 21.3.2') }]);
    expect(calls).toEqual([
      ['dpkg-query', '-S', process.execPath],
      ['dpkg-query', '-W', '-f', '${Version}', 'clickhouse-server'],
    ]);
  });

  it('offers nothing when the binary is missing or not from a package', async () => {
    expect(await localClickhouseVersions('/nonexistent/clickhouse-server', async () => 'x')).toEqual([]);
    expect(await localClickhouseVersions(process.execPath, async () => { throw new Error('dpkg-query: no path found'); })).toEqual([]);
  });

  it('on this machine: the installed clickhouse-server, Debian 18.16', async () => {
    const versions = await localClickhouseVersions(CLICKHOUSE_SERVER_BIN);
    expect(versions.map((v) => v.name)).toEqual(['18.16']);
    expect(versions[0].description).toMatch(/ClickHouse 18\.16\.\d+ from this machine's clickhouse-server package/);
  });

  it('Kubernetes offers the operator\'s name=image pairs; a malformed pair stops the start with the setting', () => {
    expect(kubernetesClickhouseVersions(undefined)).toEqual([]);
    expect(kubernetesClickhouseVersions(' 24.8=clickhouse/clickhouse-server:24.8.4.13 , 23.8=clickhouse/clickhouse-server:23.8.16.16')).toEqual([
      { name: '24.8', image_tag: 'clickhouse/clickhouse-server:24.8.4.13', description: expect.stringContaining('clickhouse/clickhouse-server:24.8.4.13') },
      { name: '23.8', image_tag: 'clickhouse/clickhouse-server:23.8.16.16', description: expect.any(String) },
    ]);
    expect(() => kubernetesClickhouseVersions('24.8')).toThrow(/CLICKHOUSE_KUBERNETES_VERSIONS/);
    expect(() => kubernetesClickhouseVersions('=image')).toThrow(/CLICKHOUSE_KUBERNETES_VERSIONS/);
  });
});
