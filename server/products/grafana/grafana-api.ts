import type { Queryable } from '../../db/database';

// The seam between the platform and Grafana (docs/grafana.md). With GRAFANA_URL and a service-account token the
// platform speaks Grafana's HTTP API (datasources, dashboards, organization users); without them the local
// implementation keeps the same state in the database and hands out Grafana-like ids, and the provisioning files
// (grafana-provisioning.ts) are what a Grafana would be given.

/** A datasource as POST /api/datasources takes it (and as a provisioning file lists it). */
export interface DatasourceModel {
  uid: string;
  name: string;
  type: string;
  access: 'proxy';
  url: string;
  basicAuth: boolean;
  basicAuthUser?: string;
  isDefault: boolean;
  jsonData: Record<string, unknown>;
  secureJsonData?: Record<string, string>;
}

/** A dashboard as POST /api/dashboards/db takes it in `dashboard` (and as a dashboard file holds it). */
export interface DashboardModel {
  id: number | null;
  uid: string;
  title: string;
  version?: number;
  [key: string]: unknown;
}

export interface CreatedDatasource {
  id: number;
  uid: string;
  orgId: number;
}

export interface SavedDashboard {
  id: number;
  uid: string;
  version: number;
  url: string | null;
}

export type GrafanaRole = 'Admin' | 'Editor' | 'Viewer';

export class GrafanaApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Grafana refused a datasource name that its organization already has. */
export class NameTakenError extends GrafanaApiError {}

export interface GrafanaAdapter {
  readonly mode: 'http' | 'local';
  /** Where people open Grafana (Launch Grafana); null in local mode. */
  readonly publicUrl: string | null;
  createDatasource(db: Queryable, model: DatasourceModel): Promise<CreatedDatasource>;
  deleteDatasource(uid: string): Promise<void>;
  saveDashboard(db: Queryable, dashboard: DashboardModel, message: string): Promise<SavedDashboard>;
  /** The dashboard as Grafana has it now (edits made in Grafana included); undefined in local mode. */
  getDashboard(uid: string): Promise<DashboardModel | undefined>;
  deleteDashboard(uid: string): Promise<void>;
  /** Adds a person to the organization (an invitation when Grafana has no such user yet). */
  addOrgUser(user: { email: string; name: string; role: GrafanaRole }): Promise<void>;
  healthy(): Promise<boolean>;
}

const LOCAL_ORG_ID = 1;

async function nextLocalId(db: Queryable): Promise<number> {
  return Number((await db.query<{ id: string }>("SELECT nextval('grafana_local_ids') AS id"))[0].id);
}

/** Local mode: the database is Grafana's state; names are checked by the unique index, as Grafana checks them. */
export function localGrafana(): GrafanaAdapter {
  return {
    mode: 'local',
    publicUrl: null,
    async createDatasource(db, model) {
      const taken = await db.query('SELECT 1 FROM grafana_datasources WHERE org_id = $1 AND name = $2', [LOCAL_ORG_ID, model.name]);
      if (taken.length > 0) throw new NameTakenError('data source with the same name already exists', 409);
      return { id: await nextLocalId(db), uid: model.uid, orgId: LOCAL_ORG_ID };
    },
    async deleteDatasource() {},
    async saveDashboard(db, dashboard) {
      const existing = await db.query<{ remote_id: number; version: number }>('SELECT remote_id, version FROM grafana_dashboards WHERE uid = $1', [dashboard.uid]);
      const id = existing[0]?.remote_id ?? (await nextLocalId(db));
      return { id, uid: dashboard.uid, version: (existing[0]?.version ?? 0) + 1, url: null };
    },
    async getDashboard() {
      return undefined;
    },
    async deleteDashboard() {},
    async addOrgUser() {},
    async healthy() {
      return true;
    },
  };
}

/** HTTP mode: Grafana's HTTP API with a service-account token (Authorization: Bearer). */
export function httpGrafana(options: { url: string; token: string; publicUrl?: string; fetch?: typeof fetch; timeoutMs?: number }): GrafanaAdapter {
  const base = options.url.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call<T>(method: string, path: string, body?: unknown, accept: number[] = []): Promise<{ status: number; json: T }> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new GrafanaApiError(`Grafana could not be reached: ${error instanceof Error ? error.message : String(error)}`, 502);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok && !accept.includes(response.status)) {
      const message = (json as { message?: string } | null)?.message ?? `Grafana answered ${response.status}`;
      if (response.status === 409 && path === '/api/datasources') throw new NameTakenError(message, 409);
      throw new GrafanaApiError(message, response.status);
    }
    return { status: response.status, json: json as T };
  }

  return {
    mode: 'http',
    publicUrl: (options.publicUrl ?? base).replace(/\/$/, ''),
    async createDatasource(_db, model) {
      const { json } = await call<{ datasource: { id: number; uid: string; orgId: number } }>('POST', '/api/datasources', model);
      return { id: json.datasource.id, uid: json.datasource.uid, orgId: json.datasource.orgId };
    },
    async deleteDatasource(uid) {
      await call('DELETE', `/api/datasources/uid/${encodeURIComponent(uid)}`, undefined, [404]);
    },
    async saveDashboard(_db, dashboard, message) {
      const { json } = await call<{ id: number; uid: string; url: string; version: number }>('POST', '/api/dashboards/db', {
        dashboard,
        overwrite: true,
        message,
      });
      const publicUrl = (options.publicUrl ?? base).replace(/\/$/, '');
      return { id: json.id, uid: json.uid, version: json.version, url: `${publicUrl}${json.url}` };
    },
    async getDashboard(uid) {
      const { status, json } = await call<{ dashboard: DashboardModel }>('GET', `/api/dashboards/uid/${encodeURIComponent(uid)}`, undefined, [404]);
      return status === 404 ? undefined : json.dashboard;
    },
    async deleteDashboard(uid) {
      await call('DELETE', `/api/dashboards/uid/${encodeURIComponent(uid)}`, undefined, [404]);
    },
    async addOrgUser(user) {
      const added = await call<{ message?: string }>('POST', '/api/org/users', { loginOrEmail: user.email, role: user.role }, [404, 409]);
      // 409: already in the organization. 404: Grafana has no such user yet, so invite them (they join on first login).
      if (added.status === 404) {
        await call('POST', '/api/org/invites', { loginOrEmail: user.email, name: user.name, role: user.role, sendEmail: false });
      }
    },
    async healthy() {
      try {
        const response = await doFetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
