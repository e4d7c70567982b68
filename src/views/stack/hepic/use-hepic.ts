// Hepic's server state for its pages (stale after 10 s, no retries: spec §9) and the form-intent fetcher.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useFetcher } from 'react-router';
import { getHepicConfig, getHepicStatistics, listHepicCandidates, listHepicTokens, listHepicUsers } from '../../../services/hepic';
import type { HepicIntentResult } from '../../../services/hepic-intents';

const STALE_MS = 10_000;
export const hepicKey = (projectId: number, ...rest: string[]) => ['hepic', projectId, ...rest];

export const useHepicConfig = (projectId: number) => useQuery({ queryKey: hepicKey(projectId, 'config'), queryFn: () => getHepicConfig(projectId), staleTime: STALE_MS, retry: false });
export const useHepicStatistics = (projectId: number) =>
  // Packets keep arriving while the Overview is open: it reads the statistics again when they become stale.
  useQuery({ queryKey: hepicKey(projectId, 'statistics'), queryFn: () => getHepicStatistics(projectId), staleTime: STALE_MS, refetchInterval: STALE_MS, retry: false });
export const useHepicTokens = (projectId: number, enabled = true) =>
  useQuery({ queryKey: hepicKey(projectId, 'tokens'), queryFn: () => listHepicTokens(projectId), staleTime: STALE_MS, retry: false, enabled });
export const useHepicUsers = (projectId: number, enabled = true) =>
  useQuery({ queryKey: hepicKey(projectId, 'users'), queryFn: () => listHepicUsers(projectId), staleTime: STALE_MS, retry: false, enabled });
export const useHepicCandidates = (projectId: number, enabled = true) =>
  useQuery({ queryKey: hepicKey(projectId, 'candidates'), queryFn: () => listHepicCandidates(projectId), staleTime: STALE_MS, retry: false, enabled });

/** A fetcher posting intents to the Hepic route; after a successful one the page's lists are read again. */
export function useHepicIntent(projectId: number) {
  const fetcher = useFetcher<HepicIntentResult>();
  const client = useQueryClient();
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) void client.invalidateQueries({ queryKey: ['hepic', projectId] });
  }, [fetcher.state, fetcher.data, client, projectId]);
  return fetcher;
}
