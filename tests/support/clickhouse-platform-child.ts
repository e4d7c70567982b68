import { createHash } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { insertCluster } from '../../server/db/repositories/clickhouse-repository';
import { createLocalProvisioner } from '../../server/products/clickhouse/local-provisioner';

// A stand-in platform process for the supervision tests: two tenants' one-node clusters under one local
// provisioner. Reports their ports and pids, forwards the supervisor's events, answers "ping" with the current pids,
// and waits to be killed.
const root = process.argv[2];
const password = process.argv[3];
const db = await openDatabase({});
const user = (await db.query<{ id: string }>("INSERT INTO users (email) VALUES ('child@example.com') RETURNING id"))[0];
const sha = createHash('sha256').update(password).digest('hex');
const send = (message: unknown) => process.send?.(message);
const provisioner = createLocalProvisioner({
  db,
  root: path.join(root, 'clickhouse'),
  restart: { initialDelayMs: 200 },
  events: {
    down: async (clusterId, node, report) => void send({ event: 'down', clusterId, node, report }),
    recovered: async (clusterId, node) => void send({ event: 'recovered', clusterId, node }),
  },
});
const clusters: { id: number; httpPort: number; admin: string }[] = [];
for (const name of ['tenant-a', 'tenant-b']) {
  const project = (await db.query<{ id: number }>('INSERT INTO projects (name, user_id) VALUES ($1, $2) RETURNING id', [name, user.id]))[0];
  const row = await insertCluster(db, {
    project_id: project.id, integration_id: null, name: name.replace('-', '_'), status: 'creating', is_external: false, provider: 'aws',
    region_code: 'eu-central-1', machine: 'm5_large', shards: 1, replicas: 1, disks: [], version: '18.16', zonal: false, zones: [],
    control_plane_zone: null, ip_safe_list: [], admin_user: 'admin_one', admin_password_sha256: sha, pending_admin_secret: null, host: '',
    http_port: 0, tcp_port: 0, secure: false, external_credentials: null, created_by: user.id,
  });
  const plan = { clusterId: row.id, name: row.name, shards: 1, replicas: 1, adminUser: 'admin_one', adminPasswordSha256: sha, ipSafeList: [], version: '18.16' };
  const [node] = await provisioner.provision(plan, { adminPassword: password });
  clusters.push({ id: row.id, httpPort: node.httpPort, admin: 'admin_one' });
}
const pids = async () => (await db.query<{ cluster_id: number; pid: number }>('SELECT cluster_id, pid FROM clickhouse_processes ORDER BY cluster_id')).map((r) => r.pid);
send({ ready: true, clusters, pids: await pids() });
process.on('message', (m) => {
  if (m === 'ping') void pids().then((p) => send({ pong: true, pids: p }));
});
process.on('SIGTERM', () => void provisioner.close().then(() => process.exit(0)));
setInterval(() => undefined, 60_000);
