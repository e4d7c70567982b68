import { QueryClient } from '@tanstack/react-query';

// Stale times of the spec: 10 s by default, 1 h for reference data, 8 h for trials, cancellation dates, the
// organization trial and owned organizations. No retries: a failure shows at once.
export const STALE_TIME = {
  default: 10_000,
  reference: 60 * 60 * 1000,
  long: 8 * 60 * 60 * 1000,
} as const;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_TIME.default, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
