import { strFromU8, unzipSync } from 'fflate';

// What the Grafana tests share: pushing log lines into a qryn instance, and reading them back the way Grafana's Loki
// datasource does (its URL, basic auth with its user and secureJsonData password, the labels and query_range calls).

export interface LokiDatasourceJson {
  url: string;
  basicAuthUser?: string;
  secureJsonData?: { basicAuthPassword?: string };
}

/** Pushes lines (Loki JSON push) with the instance's credentials; answers the labels they carry. */
export async function pushLogLines(instanceUrl: string, authorization: string, labels: Record<string, string>, lines: string[]): Promise<void> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const response = await fetch(`${instanceUrl}/loki/api/v1/push`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ streams: [{ stream: labels, values: lines.map((line, i) => [String(now + BigInt(i)), line]) }] }),
  });
  if (response.status !== 204) throw new Error(`push answered ${response.status}: ${await response.text()}`);
}

/** Grafana's Loki datasource at work: label names, then a query_range over the last hour; answers the lines. */
export async function readLikeGrafana(datasource: LokiDatasourceJson, query: string): Promise<{ labels: string[]; lines: string[]; statuses: number[] }> {
  const authorization = `Basic ${Buffer.from(`${datasource.basicAuthUser ?? ''}:${datasource.secureJsonData?.basicAuthPassword ?? ''}`).toString('base64')}`;
  const end = Date.now() + 60_000;
  const start = end - 3_600_000 - 60_000;
  const labelsResponse = await fetch(`${datasource.url}/loki/api/v1/labels?start=${start}000000&end=${end}000000`, { headers: { authorization } });
  const labelsBody = labelsResponse.ok ? ((await labelsResponse.json()) as { data: string[] }) : { data: [] };
  const params = new URLSearchParams({ query, limit: '1000', direction: 'backward', start: `${start}000000`, end: `${end}000000` });
  const rangeResponse = await fetch(`${datasource.url}/loki/api/v1/query_range?${params}`, { headers: { authorization } });
  const range = rangeResponse.ok ? ((await rangeResponse.json()) as { data: { result: { values: [string, string][] }[] } }) : { data: { result: [] } };
  return {
    labels: labelsBody.data,
    lines: range.data.result.flatMap((s) => s.values.map(([, line]) => line)),
    statuses: [labelsResponse.status, rangeResponse.status],
  };
}

/** The files of a zip answer, as text. */
export function unzipText(bytes: ArrayBuffer | Uint8Array): Record<string, string> {
  const entries = unzipSync(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  return Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, strFromU8(data)]));
}
