import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../support/start-platform';
import { enableQrynOnSeededProject, type EnabledQryn } from '../support/qryn';

// The stored-bytes quota as the platform runs it (QRYN_MAX_STORED_BYTES from the environment of `npm start`): the
// instance's own gateway refuses pushes once it is over, and GET metrics — the Overview's source — reports the quota,
// that it is reached, and how many pushes it refused.

let platform: TestPlatform;
let qryn: EnabledQryn;
let ownerToken: string;
const saved = { max: process.env.QRYN_MAX_STORED_BYTES, refresh: process.env.QRYN_STORED_BYTES_REFRESH_MS };

beforeAll(async () => {
  // The gateway reads its limits from the process environment when the platform starts.
  process.env.QRYN_MAX_STORED_BYTES = '1';
  process.env.QRYN_STORED_BYTES_REFRESH_MS = '100';
  platform = await startTestPlatform();
  ({ qryn, ownerToken } = await enableQrynOnSeededProject(platform, 'Acme Staging'));
});
afterAll(async () => {
  for (const [name, value] of [['QRYN_MAX_STORED_BYTES', saved.max], ['QRYN_STORED_BYTES_REFRESH_MS', saved.refresh]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await platform?.stop();
});

async function metrics() {
  const response = await fetch(`${platform.url}/api/integrations/qryn/metrics?project_id=${qryn.projectId}&start=0&end=${Math.floor(Date.now() / 1000) + 60}`, {
    headers: { authorization: `Bearer ${ownerToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

const push = (n: number) =>
  fetch(`${qryn.url}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization: qryn.basic, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream: { app: 'quota' }, values: [[`${Date.now()}000000`, `line ${n}`]] }] }),
  });

describe('stored-bytes quota on the platform', () => {
  it('an empty instance is under a 1-byte quota; once it stores data pushes get 429 and GET metrics says so', async () => {
    const empty = await metrics();
    expect(empty).toMatchObject({ size_limit: 1, size_limit_reached: false, refused_over_quota: 0, data_bytes: 0 });
    expect((await push(1)).status).toBe(204);
    let refused = 0;
    for (let n = 2; n <= 5 && refused === 0; n++) {
      await new Promise((r) => setTimeout(r, 150));
      if ((await push(n)).status === 429) refused++;
    }
    expect(refused).toBe(1);
    const over = await metrics();
    expect(over.size_limit).toBe(1);
    expect(over.size_limit_reached).toBe(true);
    expect(over.data_bytes as number).toBeGreaterThan(1);
    expect(over.refused_over_quota).toBe(1);
  });
});
