// Loggen's calls (spec 001 §7 Loggen): configuration, the structure catalogue, and the streamed run.
import { MessageResponse } from '../../contract/common';
import {
  LogCategoryList,
  LoggenConfig,
  LoggenRunChunk,
  LogOptionList,
  SaveLoggenConfigResponse,
  type LoggenConfigBody,
} from '../../contract/loggen';
import type { Camelize } from '../lib/case';
import { http, openStream } from './http';
import { decodeWire } from './schema-decode';

export type LoggenConfigForm = Camelize<LoggenConfigBody>;
export type LoggenRunChunkData = Camelize<typeof LoggenRunChunk.Type>;

const base = 'integrations/loggen';

export const getLoggenConfig = (projectId: number) => http.get(`${base}/config`, LoggenConfig, { searchParams: { project_id: projectId } });
export const saveLoggenConfig = (projectId: number, config: LoggenConfigForm) =>
  http.patch(`${base}/config`, SaveLoggenConfigResponse, { searchParams: { project_id: projectId }, json: config });
export const listLogOptions = () => http.get(`${base}/config/logs`, LogOptionList);
export const listLogCategories = () => http.get(`${base}/config/logs/categories`, LogCategoryList);
export const stopLoggenRun = (projectId: number) => http.post(`${base}/run/stop`, MessageResponse, { searchParams: { project_id: projectId } });

/** Reads NDJSON chunks as they arrive; resolves with the last one. */
async function readChunks(response: Response, onChunk: (chunk: LoggenRunChunkData) => void): Promise<LoggenRunChunkData | null> {
  if (!response.body) return null;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let last: LoggenRunChunkData | null = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      last = decodeWire(LoggenRunChunk, JSON.parse(line));
      onChunk(last);
    }
    if (done) break;
  }
  if (buffer.trim()) {
    last = decodeWire(LoggenRunChunk, JSON.parse(buffer));
    onChunk(last);
  }
  return last;
}

/**
 * Starts a run (POST run) or follows the one going (GET run) and reports each chunk; resolves with the last. A stream
 * that ends while the run still says running was cut: that is an error, not an outcome.
 */
export async function followLoggenRun(
  projectId: number,
  options: { start: boolean; onProgress: (progress: { current: number; max: number }) => void; signal?: AbortSignal },
): Promise<LoggenRunChunkData> {
  const response = await openStream(options.start ? 'POST' : 'GET', `${base}/run`, { searchParams: { project_id: projectId }, signal: options.signal });
  const last = await readChunks(response, (chunk) => options.onProgress({ current: chunk.current, max: chunk.max }));
  if (!last || last.status === 'running') throw new Error('The connection to the run was lost before it ended. Reload the page to see how it is going.');
  return last;
}

/** The run in progress, or how the last one ended; null when Loggen never ran here. Reads only the first chunk. */
export async function checkLoggenRun(projectId: number, signal?: AbortSignal): Promise<LoggenRunChunkData | null> {
  const controller = new AbortController();
  signal?.addEventListener('abort', () => controller.abort(signal.reason));
  const response = await openStream('GET', `${base}/run`, { searchParams: { project_id: projectId }, signal: controller.signal });
  if (response.status === 204 || !response.body) return null;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (!buffer.includes('\n')) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    if (done) break;
  }
  controller.abort();
  const line = buffer.split('\n')[0].trim();
  return line ? decodeWire(LoggenRunChunk, JSON.parse(line)) : null;
}

