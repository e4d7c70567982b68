import { pairsToRecord, timeoutSeconds, type LoggenConfigBody, type LoggenFormat, type LoggenTimeout } from '../../../contract/loggen';
import type { JobContext } from '../../jobs/job-queue';
import type { AddressRules } from '../../net/address-rules';
import { compileStructure, formatLine, type LogRecord } from './log-generator';
import { createTraceBuilder, type TraceBuilder, metricsBody, shipLogs, shipMetrics, ShipRefused, shipTraces, type LogEntry, type ShipTarget } from './log-shipper';

// One run: rate lines a second for the chosen time, each second's lines pushed as one batch. Progress counts the
// lines the gateway accepted, so a refused key leaves it at 0. A resumed run (the platform restarted) continues
// after the lines already accepted instead of sending them twice.

export const LOGGEN_RUN_JOB = 'loggen-run';
export const loggenSubject = (integrationId: number) => `loggen:${integrationId}`;

export interface LoggenRunPayload {
  integrationId: number;
  projectId: number;
  config: LoggenConfigBody;
  /** The URL was the project's own qryn instance when the run was asked for (checked by the platform, not the user). */
  trusted?: boolean;
}

const TRANSIENT_RETRIES = 3;

export class RunFailed extends Error {}

export async function runLoggen(ctx: JobContext, options: { rules: AddressRules; sleep?: (ms: number) => Promise<void> }): Promise<{ sent: number }> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { config, trusted } = ctx.job.payload as unknown as LoggenRunPayload;
  const total = config.rate * timeoutSeconds(config.timeout as LoggenTimeout);
  const labels = pairsToRecord(config.labels);
  const target: ShipTarget = {
    url: config.url,
    headers: pairsToRecord(config.headers),
    apiKey: config.api_key,
    apiSecret: config.api_secret,
    rules: options.rules,
    trusted: trusted === true,
  };
  const generate = compileStructure(config.log_config.structure);
  const tracing = config.traces.enabled ? createTraceBuilder(config.traces, labels.app ?? labels.service_name ?? 'loggen') : null;
  let sent = Math.min(ctx.job.progress_current, total);
  await ctx.progress(sent, total);
  const started = Date.now();
  let second = 0;
  while (sent < total) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const count = Math.min(config.rate, total - sent);
    const batchStart = Date.now();
    const records: LogRecord[] = [];
    const entries: LogEntry[] = [];
    const spans: ReturnType<TraceBuilder['build']>['spans'] = [];
    for (let i = 0; i < count; i++) {
      // Spread the second's lines over it, so a query by time shows an even rate.
      const at = new Date(batchStart + Math.floor((i * 1000) / count));
      const record = generate({ at });
      if (tracing) {
        const trace = tracing.build(record, at);
        record.traceID = trace.traceId;
        spans.push(...trace.spans);
      }
      records.push(record);
      entries.push({ at, line: formatLine(record, config.log_config.format as LoggenFormat) });
    }
    await withRetries(() => shipLogs(target, labels, entries, ctx.signal));
    if (config.enable_metrics) await withRetries(() => shipMetrics(target, metricsBody(labels, records, new Date(batchStart)), ctx.signal));
    if (tracing && spans.length > 0) await withRetries(() => shipTraces(target, spans, ctx.signal));
    sent += count;
    await ctx.progress(sent, total);
    second += 1;
    const wait = started + second * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
  }
  return { sent };
}

async function withRetries(attempt: () => Promise<void>): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof ShipRefused) throw new RunFailed(error.message);
      if (i >= TRANSIENT_RETRIES) throw new RunFailed(`could not reach the qryn instance: ${error instanceof Error ? error.message : String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 250 * i));
    }
  }
}
