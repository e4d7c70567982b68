import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { FieldErrors } from '../../../contract/common';
import { createCluster } from '../../services/clickhouse';

const serverErrors = (error: unknown): FieldErrors | null => {
  const details = (error as { details?: unknown } | null)?.details;
  return details && typeof details === 'object' ? (details as FieldErrors) : null;
};

/**
 * Sends a create body; on success opens the new cluster's page, on a 422 hands the field messages back, otherwise
 * keeps the failure's text. The form keeps what the user filled in either way.
 */
export function useCreateCluster(projectId: number, onFieldErrors: (errors: FieldErrors) => void) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const send = async (body: Parameters<typeof createCluster>[1]) => {
    setSubmitting(true);
    setFailure(null);
    try {
      const result = await createCluster(projectId, body);
      await queryClient.invalidateQueries({ queryKey: ['clickhouse'] });
      navigate(`../cluster/${result.cluster.id}`);
    } catch (error) {
      const details = serverErrors(error);
      if (details) onFieldErrors(details);
      else setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSubmitting(false);
    }
  };
  return { send, failure, submitting };
}
