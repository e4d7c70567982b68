import { HttpError, sendJson, type ReadRequest } from './gateway-http';
import { createReader } from './read';

// The Tempo HTTP API of an instance (what Grafana's Tempo datasource calls).

export async function tempoApi(r: ReadRequest): Promise<boolean> {
  const { res, method, path } = r;
  const trace = /^\/(?:tempo\/)?api\/traces\/([0-9a-fA-F]{1,32})$/.exec(path);
  if (method === 'GET' && trace) {
    const batches = await createReader(r.storage, r.access.instance.database_name).trace(trace[1]);
    if (batches.length === 0) throw new HttpError(404, 'Trace not found.');
    sendJson(res, 200, { batches });
    return true;
  }
  return false;
}
