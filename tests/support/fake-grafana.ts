import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for Grafana's HTTP API (the calls the adapter makes), strict about the documented request shapes:
// service-account bearer auth, JSON bodies, the fields each call takes (an unknown field is a 400, so a typo in the
// adapter fails a test), Grafana's status codes (409 for a taken datasource name, 404 for an unknown user, 412 for
// a dashboard uid that exists without overwrite). It keeps what it was given, so tests read back what Grafana
// would hold. It is not Grafana: it runs no queries.

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

export interface FakeDatasource {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  type: string;
  access: string;
  url: string;
  basicAuth: boolean;
  basicAuthUser: string;
  isDefault: boolean;
  jsonData: Record<string, unknown>;
  secureJsonData: Record<string, string>;
}

export interface FakeGrafana {
  url: string;
  token: string;
  requests: RecordedRequest[];
  datasources: Map<string, FakeDatasource>;
  dashboards: Map<string, { id: number; version: number; dashboard: Record<string, unknown> }>;
  orgUsers: Map<string, { userId: number; role: string }>;
  invites: Map<string, { role: string; name: string }>;
  /** People Grafana knows (login by email); others get an invitation. */
  knownUsers: Set<string>;
  /** Make the next calls fail with this status (until cleared). */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

const ORG_ID = 3;
const UID = /^[a-zA-Z0-9_-]{1,40}$/;
const ROLES = ['Admin', 'Editor', 'Viewer', 'None'];
const DATASOURCE_FIELDS = new Set(['name', 'type', 'access', 'url', 'uid', 'user', 'database', 'basicAuth', 'basicAuthUser', 'withCredentials', 'isDefault', 'jsonData', 'secureJsonData', 'orgId', 'version']);
const DASHBOARD_POST_FIELDS = new Set(['dashboard', 'folderId', 'folderUid', 'message', 'overwrite']);

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkDatasource(body: unknown): asserts body is Record<string, unknown> {
  if (!isObject(body)) throw new Refusal(400, 'bad request data');
  for (const key of Object.keys(body)) if (!DATASOURCE_FIELDS.has(key)) throw new Refusal(400, `unknown field ${key}`);
  if (typeof body.name !== 'string' || body.name === '') throw new Refusal(400, 'Name is required');
  if (typeof body.type !== 'string' || body.type === '') throw new Refusal(400, 'Type is required');
  if (body.access !== 'proxy' && body.access !== 'direct') throw new Refusal(400, 'access must be proxy or direct');
  if (typeof body.url !== 'string') throw new Refusal(400, 'url must be a string');
  if (body.uid !== undefined && (typeof body.uid !== 'string' || !UID.test(body.uid))) throw new Refusal(400, 'invalid uid');
  for (const flag of ['basicAuth', 'isDefault', 'withCredentials']) if (body[flag] !== undefined && typeof body[flag] !== 'boolean') throw new Refusal(400, `${flag} must be a boolean`);
  if (body.basicAuthUser !== undefined && typeof body.basicAuthUser !== 'string') throw new Refusal(400, 'basicAuthUser must be a string');
  if (body.jsonData !== undefined && !isObject(body.jsonData)) throw new Refusal(400, 'jsonData must be an object');
  if (body.secureJsonData !== undefined && (!isObject(body.secureJsonData) || Object.values(body.secureJsonData).some((v) => typeof v !== 'string'))) {
    throw new Refusal(400, 'secureJsonData must map names to strings');
  }
}

export async function startFakeGrafana(options: { token?: string; knownUsers?: string[] } = {}): Promise<FakeGrafana> {
  const token = options.token ?? 'glsa_fake_service_account_token';
  const requests: RecordedRequest[] = [];
  const datasources = new Map<string, FakeDatasource>();
  const dashboards = new Map<string, { id: number; version: number; dashboard: Record<string, unknown> }>();
  const orgUsers = new Map<string, { userId: number; role: string }>();
  const invites = new Map<string, { role: string; name: string }>();
  const knownUsers = new Set(options.knownUsers ?? []);
  let nextId = 100;
  let failing: number | null = null;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://grafana');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new Refusal(400, 'bad request data');
      }
    }
    requests.push({ method, path, authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
    if (path === '/api/health' && method === 'GET') return send(res, 200, { database: 'ok', version: '11.3.0' });
    if (req.headers.authorization !== `Bearer ${token}`) throw new Refusal(401, 'Unauthorized');
    if (failing !== null) throw new Refusal(failing, 'Grafana is failing on purpose');
    if (text && !(req.headers['content-type'] ?? '').startsWith('application/json')) throw new Refusal(415, 'content type must be application/json');

    if (path === '/api/datasources' && method === 'POST') {
      checkDatasource(body);
      if ([...datasources.values()].some((d) => d.name === body.name)) throw new Refusal(409, 'data source with the same name already exists');
      const uid = (body.uid as string | undefined) ?? `gen${nextId}`;
      if (datasources.has(uid)) throw new Refusal(409, 'data source with the same uid already exists');
      const ds: FakeDatasource = {
        id: nextId++,
        uid,
        orgId: ORG_ID,
        name: body.name as string,
        type: body.type as string,
        access: body.access as string,
        url: body.url as string,
        basicAuth: Boolean(body.basicAuth),
        basicAuthUser: (body.basicAuthUser as string | undefined) ?? '',
        isDefault: Boolean(body.isDefault),
        jsonData: (body.jsonData as Record<string, unknown> | undefined) ?? {},
        secureJsonData: (body.secureJsonData as Record<string, string> | undefined) ?? {},
      };
      datasources.set(uid, ds);
      const { secureJsonData, ...visible } = ds;
      const answer = { ...visible, secureJsonFields: Object.fromEntries(Object.keys(secureJsonData).map((k) => [k, true])), version: 1, readOnly: false };
      return send(res, 200, { datasource: answer, id: ds.id, message: 'Datasource added', name: ds.name });
    }
    if (path === '/api/datasources' && method === 'GET') return send(res, 200, [...datasources.values()].map(({ secureJsonData: _s, ...d }) => d));
    const dsMatch = /^\/api\/datasources\/uid\/([^/]+)$/.exec(path);
    if (dsMatch && method === 'DELETE') {
      const ds = datasources.get(decodeURIComponent(dsMatch[1]));
      if (!ds) throw new Refusal(404, 'Data source not found');
      datasources.delete(ds.uid);
      return send(res, 200, { message: 'Data source deleted', id: ds.id });
    }

    if (path === '/api/dashboards/db' && method === 'POST') {
      if (!isObject(body)) throw new Refusal(400, 'bad request data');
      for (const key of Object.keys(body)) if (!DASHBOARD_POST_FIELDS.has(key)) throw new Refusal(400, `unknown field ${key}`);
      const dashboard = body.dashboard;
      if (!isObject(dashboard) || typeof dashboard.title !== 'string' || dashboard.title === '') throw new Refusal(400, 'Dashboard title cannot be empty');
      if (dashboard.id !== null && dashboard.id !== undefined && typeof dashboard.id !== 'number') throw new Refusal(400, 'dashboard id must be a number or null');
      if (dashboard.uid !== undefined && (typeof dashboard.uid !== 'string' || !UID.test(dashboard.uid))) throw new Refusal(400, 'Dashboard uid is invalid');
      if (body.overwrite !== undefined && typeof body.overwrite !== 'boolean') throw new Refusal(400, 'overwrite must be a boolean');
      const uid = (dashboard.uid as string | undefined) ?? `d${nextId}`;
      const existing = dashboards.get(uid);
      if (existing && body.overwrite !== true) throw new Refusal(412, 'A dashboard with the same uid already exists');
      const id = existing?.id ?? nextId++;
      const version = (existing?.version ?? 0) + 1;
      dashboards.set(uid, { id, version, dashboard: { ...dashboard, id, uid, version } });
      const slug = (dashboard.title as string).toLowerCase().replace(/[^a-z0-9]+/g, '-');
      return send(res, 200, { id, uid, url: `/d/${uid}/${slug}`, status: 'success', version, slug });
    }
    const dashMatch = /^\/api\/dashboards\/uid\/([^/]+)$/.exec(path);
    if (dashMatch && method === 'GET') {
      const found = dashboards.get(decodeURIComponent(dashMatch[1]));
      if (!found) throw new Refusal(404, 'Dashboard not found');
      return send(res, 200, { dashboard: found.dashboard, meta: { slug: 'x', url: `/d/${dashMatch[1]}`, version: found.version, provisioned: false } });
    }
    if (dashMatch && method === 'DELETE') {
      const found = dashboards.get(decodeURIComponent(dashMatch[1]));
      if (!found) throw new Refusal(404, 'Dashboard not found');
      dashboards.delete(decodeURIComponent(dashMatch[1]));
      return send(res, 200, { title: found.dashboard.title, message: 'Dashboard deleted', id: found.id });
    }

    if (path === '/api/org/users' && method === 'POST') {
      if (!isObject(body) || typeof body.loginOrEmail !== 'string' || !ROLES.includes(body.role as string)) throw new Refusal(400, 'loginOrEmail and a valid role are required');
      for (const key of Object.keys(body)) if (key !== 'loginOrEmail' && key !== 'role') throw new Refusal(400, `unknown field ${key}`);
      if (!knownUsers.has(body.loginOrEmail)) throw new Refusal(404, 'User not found');
      if (orgUsers.has(body.loginOrEmail)) throw new Refusal(409, 'User is already member of this organization');
      const userId = nextId++;
      orgUsers.set(body.loginOrEmail, { userId, role: body.role as string });
      return send(res, 200, { message: 'User added to organization', userId });
    }
    if (path === '/api/org/users' && method === 'GET') {
      return send(res, 200, [...orgUsers.entries()].map(([email, u]) => ({ orgId: ORG_ID, userId: u.userId, email, login: email, role: u.role })));
    }
    if (path === '/api/org/invites' && method === 'POST') {
      if (!isObject(body) || typeof body.loginOrEmail !== 'string' || !ROLES.includes(body.role as string)) throw new Refusal(400, 'loginOrEmail and a valid role are required');
      for (const key of Object.keys(body)) if (!['loginOrEmail', 'name', 'role', 'sendEmail'].includes(key)) throw new Refusal(400, `unknown field ${key}`);
      invites.set(body.loginOrEmail, { role: body.role as string, name: (body.name as string | undefined) ?? '' });
      return send(res, 200, { message: `Created invite for ${body.loginOrEmail}` });
    }
    throw new Refusal(404, 'Not found');
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) send(res, error.status, { message: error.message });
      else send(res, 500, { message: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    requests,
    datasources,
    dashboards,
    orgUsers,
    invites,
    knownUsers,
    failWith: (status) => (failing = status),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
