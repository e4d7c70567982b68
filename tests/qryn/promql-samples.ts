import { compressSync } from 'snappy';
import { PromWriteRequest } from '../../server/products/qryn/ingest/protos';

// One generated set of Prometheus samples for the PromQL reference test: counters with resets, gauges (negative
// values too), a classic histogram (`le` buckets, _sum, _count), a summary (quantiles, _sum, _count), a gauge with NaN
// values, a series that ends with a stale marker, one that just stops, and `up` series whose label values need RE2
// features ((?i), character classes, alternation). Values come from a seeded generator: the same set every run.
// Sample times sit at 1.234 s past a 15 s grid (plus a few ms per series) so that no sample falls on the boundary
// of a query window, where Prometheus 2.42 (closed ranges) and any other reading could differ.

export const SCRAPE_MS = 15_000;
export const SAMPLES_PER_SERIES = 220;

export interface GeneratedSeries {
  labels: Record<string, string>;
  samples: { value: number; timestamp: number }[];
}

/**
 * Prometheus' stale marker: NaN with the bits 0x7ff0000000000002. Keep it out of number arrays: V8 may store an
 * array of doubles with its NaNs made canonical, which turns the marker into a plain NaN. Put it in a sample object.
 */
export const STALE_NAN = (() => {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(2, 0);
  b.writeUInt32LE(0x7ff00000, 4);
  return b.readDoubleLE(0);
})();

function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateSamples(baseMs: number): GeneratedSeries[] {
  const rand = mulberry32(42);
  const out: GeneratedSeries[] = [];
  let index = 0;
  const times = () => {
    const offset = 1234 + (index++ % 50) * 7;
    return Array.from({ length: SAMPLES_PER_SERIES }, (_, k) => baseMs + k * SCRAPE_MS + offset);
  };
  const series = (labels: Record<string, string>, values: number[], t = times()) =>
    out.push({ labels, samples: values.map((value, k) => ({ value, timestamp: t[k] })) });

  // Counters with resets.
  for (const instance of ['a', 'b', 'c']) {
    for (const method of ['GET', 'POST']) {
      for (const status of ['200', '500']) {
        let v = Math.floor(rand() * 1000);
        const resetAt = Math.floor(rand() * SAMPLES_PER_SERIES);
        const values = Array.from({ length: SAMPLES_PER_SERIES }, (_, k) => {
          if (k === resetAt && instance !== 'c') v = Math.floor(rand() * 5);
          else v += Math.floor(rand() * (status === '200' ? 20 : 3));
          return v;
        });
        series({ __name__: 'http_requests_total', job: 'api', instance, method, status }, values);
      }
    }
  }
  // Gauges.
  for (const instance of ['a', 'b', 'c', 'd']) {
    let v = rand() * 40 - 10;
    series({ __name__: 'node_temperature_celsius', job: 'node', instance, zone: instance < 'c' ? 'east' : 'west' }, Array.from({ length: SAMPLES_PER_SERIES }, () => (v += rand() * 4 - 2)));
    series({ __name__: 'node_memory_free_bytes', job: 'node', instance }, Array.from({ length: SAMPLES_PER_SERIES }, () => Math.round(rand() * 8e9)));
  }
  // A classic histogram per instance.
  const les = ['0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf'];
  for (const instance of ['a', 'b']) {
    const counts = les.map(() => 0);
    let sum = 0;
    const bucketValues = les.map(() => [] as number[]);
    const sums: number[] = [];
    const t = times();
    for (let k = 0; k < SAMPLES_PER_SERIES; k++) {
      const observations = Math.floor(rand() * 10);
      for (let o = 0; o < observations; o++) {
        const x = rand() ** 2 * 3;
        sum += x;
        les.forEach((le, i) => {
          if (le === '+Inf' || x <= Number(le)) counts[i]++;
        });
      }
      les.forEach((_, i) => bucketValues[i].push(counts[i]));
      sums.push(sum);
    }
    les.forEach((le, i) => series({ __name__: 'request_duration_seconds_bucket', job: 'api', instance, le }, bucketValues[i], t));
    series({ __name__: 'request_duration_seconds_sum', job: 'api', instance }, sums, t);
    series({ __name__: 'request_duration_seconds_count', job: 'api', instance }, bucketValues[les.length - 1], t);
  }
  // A summary.
  for (const instance of ['a', 'b']) {
    const t = times();
    let count = 0;
    let sum = 0;
    const counts: number[] = [];
    const sums: number[] = [];
    for (let k = 0; k < SAMPLES_PER_SERIES; k++) {
      count += Math.floor(rand() * 5);
      sum += rand() * 2;
      counts.push(count);
      sums.push(sum);
    }
    for (const quantile of ['0.5', '0.9', '0.99']) {
      series({ __name__: 'rpc_duration_seconds', job: 'rpc', instance, quantile }, Array.from({ length: SAMPLES_PER_SERIES }, () => rand() * Number(quantile)), t);
    }
    series({ __name__: 'rpc_duration_seconds_sum', job: 'rpc', instance }, sums, t);
    series({ __name__: 'rpc_duration_seconds_count', job: 'rpc', instance }, counts, t);
  }
  // NaN values among numbers.
  series({ __name__: 'flaky_ratio', job: 'node', instance: 'a' }, Array.from({ length: SAMPLES_PER_SERIES }, (_, k) => (k % 7 === 3 ? NaN : rand())));
  // A series that ends with a stale marker (its target went away) and one that simply stops.
  {
    const t = times();
    series({ __name__: 'batch_progress', job: 'batch', instance: 'stale' }, Array.from({ length: 120 }, () => rand() * 100), t.slice(0, 120));
    out[out.length - 1].samples.push({ value: STALE_NAN, timestamp: t[120] });
    series({ __name__: 'batch_progress', job: 'batch', instance: 'stopped' }, Array.from({ length: 120 }, () => rand() * 100), times().slice(0, 120));
  }
  // `up` with label values that need RE2 features.
  for (const job of ['NODE', 'node', 'Node-Exporter', 'api.server', 'api-server', 'db_01', 'db_02', 'caché']) {
    series({ __name__: 'up', job, instance: `${job.toLowerCase()}:9100` }, Array.from({ length: SAMPLES_PER_SERIES }, () => (rand() < 0.9 ? 1 : 0)));
  }
  return out;
}

/** A snappy-compressed remote-write body (samples in time order within each series). */
export function remoteWriteBody(series: GeneratedSeries[], metadata: { type: number; metricFamilyName: string; help: string; unit: string }[] = []): Buffer {
  const message = PromWriteRequest.fromObject({
    timeseries: series.map((s) => ({ labels: Object.entries(s.labels).map(([name, value]) => ({ name, value })), samples: s.samples })),
    metadata,
  });
  return compressSync(Buffer.from(PromWriteRequest.encode(message).finish()));
}

export async function remoteWrite(url: string, body: Buffer, authorization?: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-protobuf',
      'content-encoding': 'snappy',
      'x-prometheus-remote-write-version': '0.1.0',
      ...(authorization ? { authorization } : {}),
    },
    body: new Uint8Array(body),
  });
  if (response.status >= 300) throw new Error(`remote write to ${url} answered ${response.status}: ${await response.text()}`);
}
