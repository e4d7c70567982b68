import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CODE_EXAMPLES, SHELL_EXAMPLES, type ShellExample } from '../../contract/qryn-examples';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';
import { findInstance } from '../../server/products/qryn/instances/qryn-repository';

// Every runnable example of the Data Ingestion pages, exactly as the page renders it, against the local gateway:
// shell commands executed by bash, Node.js programs by node (with the client library they import, from this
// repository's node_modules); each one's data must then be counted by GET metrics and found by a read.

const run = promisify(execFile);
let platform: TestPlatform;
let qryn: EnabledQryn;
let ownerToken: string;
let projectId: number;

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ qryn, ownerToken, projectId } = await enableQrynOnSeededProject(platform, 'Acme Production'));
});
afterAll(async () => platform?.stop());

async function metrics() {
  const response = await fetch(`${platform.url}/api/integrations/qryn/metrics?project_id=${projectId}&start=0&end=${Math.floor(Date.now() / 1000) + 60}`, {
    headers: { authorization: `Bearer ${ownerToken}` },
  });
  return (await response.json()) as Record<string, number>;
}

/** The example's data arrived: one more row of its kind in GET metrics, and a read finds it. */
async function expectStored(check: ShellExample['check'], before: Record<string, number>) {
  const after = await metrics();
  const headers = { authorization: qryn.basic };
  const now = Math.floor(Date.now() / 1000);
  if (check.kind === 'logs') {
    expect(after.logs_rows).toBe(before.logs_rows + 1);
    const answer = (await (await fetch(`${qryn.url}/loki/api/v1/query_range?query=${encodeURIComponent(check.query)}`, { headers })).json()) as any;
    expect(answer.data.result).toHaveLength(1);
    expect(answer.data.result[0].values).toHaveLength(1);
  } else if (check.kind === 'metrics') {
    expect(after.metrics_rows).toBe(before.metrics_rows + 1);
    const answer = (await (await fetch(`${qryn.url}/api/v1/query_range?query=${encodeURIComponent(check.query)}&start=${now - 60}&end=${now + 5}&step=5`, { headers })).json()) as any;
    expect(answer.data.result).toHaveLength(1);
  } else {
    expect(after.traces_count).toBe(before.traces_count + 1);
    const instance = (await findInstance(platform.db, qryn.instanceId))!;
    const client = await qryn.backend.storageOf(instance);
    const spans = await client.query(`SELECT name FROM ${instance.database_name}.spans WHERE service_name = '${check.query}'`);
    expect(spans).toEqual([{ name: 'hello' }]);
  }
}

const input = () => ({ url: qryn.url, apiKey: qryn.apiKey, apiSecret: qryn.apiSecret });

describe('Data Ingestion shell examples', () => {
  for (const example of SHELL_EXAMPLES) {
    it(`${example.id}: ${example.title}`, async () => {
      const before = await metrics();
      await run('bash', ['-c', example.command(input())]);
      await expectStored(example.check, before);
    });
  }
});

describe('Data Ingestion Node.js examples', () => {
  for (const example of CODE_EXAMPLES) {
    it(`${example.id}: ${example.title} (${example.library})`, async () => {
      const before = await metrics();
      // Run from the repository so that the program's imports resolve to the installed client libraries.
      await run(process.execPath, ['--input-type=module', '-e', example.code(input())], { cwd: process.cwd(), timeout: 20_000 });
      await expectStored(example.check, before);
    });
  }
});
