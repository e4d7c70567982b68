// Hepic's calls (spec 001 §7 Hepic): config, statistics, tokens, users and their groups, the two switches.
import { MessageResponse } from '../../contract/common';
import {
  CreateHepicTokenResponse,
  HepicCandidateList,
  HepicConfig,
  HepicStatistics,
  HepicToggleResponse,
  HepicTokenList,
  HepicUserList,
  RotateHepicKeyResponse,
  UpdateHepicRoleResponse,
  type HepicGroup,
} from '../../contract/hepic';
import { http } from './http';

const base = 'integrations/hepic';
const project = (projectId: number) => ({ project_id: projectId });

export type HepicConfigData = Awaited<ReturnType<typeof getHepicConfig>>;
export type HepicStatisticsData = Awaited<ReturnType<typeof getHepicStatistics>>;
export type HepicTokenData = Awaited<ReturnType<typeof listHepicTokens>>[number];
export type HepicUserData = Awaited<ReturnType<typeof listHepicUsers>>[number];
export type HepicCandidateData = Awaited<ReturnType<typeof listHepicCandidates>>[number];

export const getHepicConfig = (projectId: number) => http.get(`${base}/config`, HepicConfig, { searchParams: project(projectId) });
export const getHepicStatistics = (projectId: number) => http.get(`${base}/statistics`, HepicStatistics, { searchParams: project(projectId) });
export const listHepicTokens = (projectId: number) => http.get(`${base}/tokens`, HepicTokenList, { searchParams: { ...project(projectId), active: true } });
export const listHepicUsers = (projectId: number) => http.get(`${base}/users`, HepicUserList, { searchParams: project(projectId) });
export const listHepicCandidates = (projectId: number) => http.get(`${base}/users/candidates`, HepicCandidateList, { searchParams: project(projectId) });

export const createHepicToken = (projectId: number, body: { name: string; scope: 'read'; ttlDays: number }) =>
  http.post(`${base}/tokens`, CreateHepicTokenResponse, { searchParams: project(projectId), json: body });
/** A new ingestion key (shown this once); the old one stops working at once. */
export const rotateHepicKey = (projectId: number) => http.post(`${base}/key/rotate`, RotateHepicKeyResponse, { searchParams: project(projectId) });
export const addHepicUser = (projectId: number, userId: string, group: HepicGroup) =>
  http.post(`${base}/users`, MessageResponse, { searchParams: project(projectId), json: { users: [{ userId, group }] } });
export const removeHepicUser = (projectId: number, userId: string) => http.delete(`${base}/users`, MessageResponse, { searchParams: { ...project(projectId), user_id: userId } });
/** Without hasConfirmed the server answers the confirm prompt and changes nothing. */
export const updateHepicUserRole = (projectId: number, userId: string, group: HepicGroup, hasConfirmed: boolean) =>
  http.patch(`${base}/users/role`, UpdateHepicRoleResponse, { searchParams: project(projectId), json: { users: [{ userId, group }], hasConfirmed } });
export const setHepicAutoAdd = (projectId: number, enabled: boolean) => http.post(`${base}/auto-add`, HepicToggleResponse, { searchParams: project(projectId), json: { enabled } });
