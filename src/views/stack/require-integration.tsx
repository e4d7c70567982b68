// The guard every product area wraps itself in (docs/stack.md): the product must be enabled in the project and
// usable by this person; otherwise back to the stack page, with a warning for a suspended or cancelled product.
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { Spinner } from '../../components/ui/spinner';
import { toast } from '../../services/toast-store';
import { useShellData } from '../shell/use-shell-data';
import { accessTo, DATA_QUERY_ERROR, DATA_QUERY_ERROR_DESCRIPTION, productDocumentTitle } from './stack-rules';
import { useDocumentTitle } from './use-document-title';

export function RequireIntegration({ productSlug, pageTitle = 'Overview', children }: { productSlug: string; pageTitle?: string; children: ReactNode }) {
  const shell = useShellData();
  const project = shell.currentProject!;
  const integrations = useQuery(queries.integrations(project.id));
  const integration = integrations.data?.find((i) => i.product.slug === productSlug);
  const decision = integrations.isSuccess ? accessTo(integration) : null;
  useDocumentTitle(integration && decision?.kind === 'open' ? productDocumentTitle(integration.product.name, pageTitle) : null);

  useEffect(() => {
    if (decision?.kind === 'warn') toast.warning(decision.message, decision.description);
  }, [decision?.kind, decision?.kind === 'warn' ? decision.message : null]);

  if (integrations.isPending) return <Spinner size="lg" label="Loading" />;
  if (integrations.isError) {
    return (
      <Alert status="error" title={DATA_QUERY_ERROR}>
        {DATA_QUERY_ERROR_DESCRIPTION}
      </Alert>
    );
  }
  // Just after a product is enabled the cached list may not have it yet while its refetch is under way: wait for
  // the fresh list rather than sending the person back to the stack page from a product they just added.
  if (decision?.kind !== 'open' && integrations.isFetching) return <Spinner size="lg" label="Loading" />;
  if (decision?.kind !== 'open') return <Navigate to={`/${project.slug}/stack`} replace />;
  return <>{children}</>;
}

/**
 * stack/* that no product area answers: back to the stack root (spec 001 §2). When the path names a product of the
 * project that is suspended or cancelled, the guard warns on the way (a product whose pages are not installed in
 * this build lands here too).
 */
export function StackRedirect() {
  const shell = useShellData();
  const segment = (useParams()['*'] ?? '').split('/')[0];
  const home = <Navigate to={`/${shell.currentProject!.slug}/stack`} replace />;
  return segment ? <RequireIntegration productSlug={segment}>{home}</RequireIntegration> : home;
}
