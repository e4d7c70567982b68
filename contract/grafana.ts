import { Schema } from 'effect';
import type { FieldErrors } from './common';

// Grafana (spec 001 §2 Grafana, §3 Grafana, §5 Grafana, §7 Grafana, §8 toasts): the project's datasources (qryn's
// Loki, Prometheus and Tempo; ClickHouse clusters), the dashboards made for clusters, the Grafana users and the
// dashboards export. The same rules run in the console (before sending) and in the API.

export const CLICKHOUSE_DATASOURCE_TYPE = 'grafana-clickhouse-datasource';
export const QRYN_DATASOURCE_KINDS = ['loki', 'prometheus', 'tempo'] as const;
export type QrynDatasourceKind = (typeof QRYN_DATASOURCE_KINDS)[number];

export const SELECT_USER_MESSAGE = 'You need to select at least one user';
export const EXPORT_SUCCESS_MESSAGE = 'Dashboards exported successfully';
export const EXPORT_FAILED_MESSAGE = 'Failed to export dashboards. Please try again.';
export const NO_TOKEN_MESSAGE = 'No authentication token available';
export const EXPORT_DEFAULT_FILENAME = 'grafana-dashboards.zip';
export const DATASOURCE_NAME_MESSAGE = 'The datasource name is required.';
export const SELECT_CLUSTER_MESSAGE = 'Please select a cluster.';
export const SELECT_CLUSTERS_MESSAGE = 'Select at least one cluster.';
export const NAME_TOO_LONG_MESSAGE = 'The name cannot exceed 190 characters.';
export const NAME_TAKEN_MESSAGE = 'A datasource with this name already exists in Grafana.';
export const ORGANIZATION_MODE_MESSAGE = 'Adding users to Grafana is only available in organization mode. Create an organization to share Grafana with your team.';
export const DATASOURCES_CREATED_MESSAGE = 'The qryn datasources have been added to Grafana';
export const CLICKHOUSE_DATASOURCE_CREATED_MESSAGE = 'The ClickHouse datasource has been added to Grafana';
export const DASHBOARDS_CREATED_MESSAGE = 'The dashboards have been created';
export const USERS_ADDED_MESSAGE = 'The users have been added to Grafana';
export const autoAddMessage = (enabled: boolean) =>
  enabled ? 'Users of this project are now added to Grafana automatically' : 'Users of this project are no longer added to Grafana automatically';
export const configLoadErrorMessage = (projectId: number) =>
  `We had some issues loading the configuration of the Grafana integration for project ${projectId}`;
export const GRAFANA_DOCS_URL = 'https://grafana.com/docs/grafana/latest/';

export const qrynDatasourceName = (kind: QrynDatasourceKind, project: string) =>
  `qryn ${kind === 'loki' ? 'Loki' : kind === 'prometheus' ? 'Prometheus' : 'Tempo'} (${project})`;
export const clickhouseDatasourceName = (project: string, cluster: string) => `ClickHouse (${project} - ${cluster})`;
export const clickhouseDashboardTitle = (project: string, cluster: string) => `ClickHouse overview (${project} - ${cluster})`;

/** GET integrations/grafana/config (spec §3 Config: id, projectId, autoAddUsers, grafanaUrl). */
export const GrafanaConfig = Schema.Struct({
  id: Schema.Number,
  project_id: Schema.Number,
  auto_add_users: Schema.Boolean,
  /** Where Launch Grafana goes; null when the platform keeps Grafana's state itself (local mode, docs/grafana.md). */
  grafana_url: Schema.NullOr(Schema.String),
  mode: Schema.Literals(['http', 'local']),
});
export type GrafanaConfig = typeof GrafanaConfig.Type;

/** GET integrations/grafana/datasources (spec §3 Datasource: id, orgId, uid, name, type). */
export const GrafanaDatasource = Schema.Struct({
  id: Schema.Number,
  org_id: Schema.Number,
  uid: Schema.String,
  name: Schema.String,
  type: Schema.String,
  url: Schema.String,
  cluster_id: Schema.NullOr(Schema.Number),
});
export type GrafanaDatasource = typeof GrafanaDatasource.Type;
export const GrafanaDatasourceList = Schema.Array(GrafanaDatasource);

/** GET integrations/grafana/qryn-datasources: null until they are created. */
export const QrynDatasources = Schema.NullOr(
  Schema.Struct({
    prom_uid: Schema.String,
    prom_name: Schema.String,
    tempo_uid: Schema.String,
    tempo_name: Schema.String,
    cloki_uid: Schema.String,
    qryn_loki_name: Schema.String,
  }),
);
export type QrynDatasources = typeof QrynDatasources.Type;

/** GET integrations/grafana/users (spec §3 User: name, email, userId, orgId). */
export const GrafanaUser = Schema.Struct({ name: Schema.String, email: Schema.String, user_id: Schema.String, org_id: Schema.Number });
export type GrafanaUser = typeof GrafanaUser.Type;
export const GrafanaUserList = Schema.Array(GrafanaUser);

export const GrafanaDashboard = Schema.Struct({
  uid: Schema.String,
  title: Schema.String,
  cluster_id: Schema.NullOr(Schema.Number),
  version: Schema.Number,
  /** The dashboard's address in Grafana (null in local mode). */
  url: Schema.NullOr(Schema.String),
});
export type GrafanaDashboard = typeof GrafanaDashboard.Type;
export const GrafanaDashboardList = Schema.Array(GrafanaDashboard);

/**
 * POST integrations/grafana/datasources: the qryn kind creates Loki, Prometheus and Tempo at once; the clickhouse
 * kind one datasource for a cluster. Shape only; the rules are in validateDatasourceBody.
 */
export const CreateDatasourceBody = Schema.Struct({
  type: Schema.Literals(['qryn', 'clickhouse']),
  loki_name: Schema.optional(Schema.String),
  prometheus_name: Schema.optional(Schema.String),
  tempo_name: Schema.optional(Schema.String),
  cluster_id: Schema.optional(Schema.NullOr(Schema.Number)),
  name: Schema.optional(Schema.String),
});
export type CreateDatasourceBody = typeof CreateDatasourceBody.Type;

const MAX_NAME = 190;

/** Spec §5 Grafana: the three names for qryn; a cluster and a name for ClickHouse. */
export function validateDatasourceBody(body: CreateDatasourceBody): FieldErrors {
  const errors: FieldErrors = {};
  const name = (field: 'loki_name' | 'prometheus_name' | 'tempo_name' | 'name', value: string | undefined) => {
    if (value === undefined || value.trim() === '') errors[field] = [DATASOURCE_NAME_MESSAGE];
    else if (value.length > MAX_NAME) errors[field] = [NAME_TOO_LONG_MESSAGE];
  };
  if (body.type === 'qryn') {
    name('loki_name', body.loki_name);
    name('prometheus_name', body.prometheus_name);
    name('tempo_name', body.tempo_name);
    const names = [body.loki_name, body.prometheus_name, body.tempo_name].map((n) => n?.trim());
    if (!errors.prometheus_name && names[1] && names[1] === names[0]) errors.prometheus_name = ['Each datasource needs its own name.'];
    if (!errors.tempo_name && names[2] && (names[2] === names[0] || names[2] === names[1])) errors.tempo_name = ['Each datasource needs its own name.'];
  } else {
    if (body.cluster_id === undefined || body.cluster_id === null || !Number.isInteger(body.cluster_id) || body.cluster_id < 1) errors.cluster_id = [SELECT_CLUSTER_MESSAGE];
    name('name', body.name);
  }
  return errors;
}

/** POST integrations/grafana/dashboards */
export const CreateDashboardsBody = Schema.Struct({ product_clickhouse_clusters: Schema.Array(Schema.Number) });
export type CreateDashboardsBody = typeof CreateDashboardsBody.Type;

export function validateDashboardsBody(body: CreateDashboardsBody): FieldErrors {
  if (body.product_clickhouse_clusters.length === 0) return { product_clickhouse_clusters: [SELECT_CLUSTERS_MESSAGE] };
  if (body.product_clickhouse_clusters.some((id) => !Number.isInteger(id) || id < 1)) return { product_clickhouse_clusters: [SELECT_CLUSTER_MESSAGE] };
  return {};
}

/** POST integrations/grafana/users with {users: [{name, email, id}]} and project_id. */
export const AddGrafanaUsersBody = Schema.Struct({
  users: Schema.Array(Schema.Struct({ name: Schema.String, email: Schema.String, id: Schema.String })),
  project_id: Schema.optional(Schema.Number),
});
export type AddGrafanaUsersBody = typeof AddGrafanaUsersBody.Type;

export function validateUsersBody(body: AddGrafanaUsersBody): FieldErrors {
  return body.users.length === 0 ? { users: [SELECT_USER_MESSAGE] } : {};
}

/** POST integrations/grafana/auto-add */
export const AutoAddBody = Schema.Struct({ enabled: Schema.Boolean });
export type AutoAddBody = typeof AutoAddBody.Type;

export const CreatedResponse = Schema.Struct({ message: Schema.String, uids: Schema.Array(Schema.String) });
export type CreatedResponse = typeof CreatedResponse.Type;

export const AutoAddResponse = Schema.Struct({ message: Schema.String, enabled: Schema.Boolean });
