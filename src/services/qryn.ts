// qryn's calls (spec 001 §7 qryn): the instance's config, its ingestion stats for the current month, scoped tokens,
// key rotation and the Config page's settings. Shapes in contract/qryn.ts.
import { MessageResponse } from '../../contract/common';
import { CreateTokenResponse, InstrumentedApplicationList, InstrumentResponse, QrynConfig, QrynCosts, QrynMetrics, QrynTokenList, RotateCredentialsResponse, type TokenScope } from '../../contract/qryn';
import type { Camelize } from '../lib/case';
import { http } from './http';

export type QrynConfigData = Camelize<QrynConfig>;
export type QrynMetricsData = Camelize<QrynMetrics>;
export type QrynCostsData = Camelize<QrynCosts>;
export type InstrumentedApplicationData = Camelize<typeof InstrumentedApplicationList.Type>[number];
export type QrynTokenData = Camelize<typeof QrynTokenList.Type>[number];
export type CreatedToken = Camelize<typeof CreateTokenResponse.Type>;
export type RotatedCredentials = Camelize<typeof RotateCredentialsResponse.Type>;

const base = 'integrations/qryn';
const inProject = (projectId: number) => ({ searchParams: { project_id: projectId } });

export const getQrynConfig = (projectId: number) => http.get(`${base}/config`, QrynConfig, inProject(projectId));

/** The current month (UTC), from the first at 00:00 to now, in seconds (spec 001 §7: "starting on the first"). */
export function currentMonth(nowMs: number): { start: number; end: number } {
  const now = new Date(nowMs);
  return { start: Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000), end: Math.floor(nowMs / 1000) };
}

export const getQrynMetrics = (projectId: number, period: { start: number; end: number }) =>
  http.get(`${base}/metrics`, QrynMetrics, { searchParams: { project_id: projectId, start: period.start, end: period.end } });

export const listQrynTokens = (projectId: number) => http.get(`${base}/tokens`, QrynTokenList, inProject(projectId));

export const createQrynToken = (projectId: number, body: { name: string; scope: TokenScope }) =>
  http.post(`${base}/tokens`, CreateTokenResponse, { json: { ...body, projectId } });

export const deleteQrynToken = (projectId: number, tokenId: number) => http.delete(`${base}/tokens/${tokenId}`, MessageResponse, inProject(projectId));

/** A GET that writes, as the spec has it: new key and secret, the old pair refused at once. */
export const rotateQrynKeys = (projectId: number) => http.get(`${base}/config/credentials/rotate`, RotateCredentialsResponse, inProject(projectId));

export const updateQrynRetention = (projectId: number, ttlAddonId: string) =>
  http.patch(`${base}/retention/policies`, MessageResponse, { ...inProject(projectId), json: { ttlAddonId } });

export const updateFingerprintLimit = (projectId: number, limit: number) =>
  http.patch(`${base}/fingerprints/limit`, MessageResponse, { ...inProject(projectId), json: { limit } });

export const setQrynSwitch = (projectId: number, name: 'cache' | 'drilldown', enabled: boolean) =>
  http.patch(`${base}/${name}`, MessageResponse, { ...inProject(projectId), json: { enabled } });

/** The current month's cost at the volume stored now (docs/qryn.md "Costs"). */
export const getQrynCosts = (projectId: number) => http.get(`${base}/costs`, QrynCosts, inProject(projectId));

export const listInstrumentedApplications = (projectId: number) => http.get(`${base}/instrumented-applications`, InstrumentedApplicationList, inProject(projectId));

/** Makes the chosen clusters the instrumented set (at least one). */
export const instrumentClusters = (projectId: number, clusterIds: string[]) =>
  http.post(`${base}/instrument`, InstrumentResponse, { ...inProject(projectId), json: { clusterIds } });
