// /{projectSlug}/stack: the products enabled in the current project, one card each (spec 001 §2 Stack).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { css } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { buttonStyles } from '../../components/ui/button';
import { PlusIcon } from '../../components/ui/icons';
import { Skeleton } from '../../components/ui/spinner';
import { formatDate } from '../../lib/format';
import type { Integration } from '../../services/integrations';
import { useShellData } from '../shell/use-shell-data';
import { CancellationInfo, IntegrationStatusBadge } from './integration-status-badge';
import { DATA_QUERY_ERROR, DATA_QUERY_ERROR_DESCRIPTION, stackCards, unavailableReason } from './stack-rules';
import { useDocumentTitle } from './use-document-title';

export const STACK_SUBTITLE = 'The products that are enabled in the current project.';

export function StackView() {
  const shell = useShellData();
  const project = shell.currentProject!;
  const integrations = useQuery(queries.integrations(project.id));
  useDocumentTitle('Stack');
  const cards = integrations.data ? stackCards(integrations.data) : [];

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '4', flexWrap: 'wrap' })}>
        <div>
          <h1 className={css({ textStyle: { base: '2xl', md: '3xl' }, fontWeight: 'semibold' })}>Stack</h1>
          <p className={css({ color: 'fg.muted', mt: '1' })}>{STACK_SUBTITLE}</p>
        </div>
        {!shell.readOnly && (
          <Link to={`/${project.slug}/stack/add`} className={buttonStyles({ variant: 'solid' })}>
            <PlusIcon /> Add a product
          </Link>
        )}
      </header>
      {integrations.isPending && <Skeleton height="24" aria-label="Loading the products of this project" />}
      {integrations.isError && (
        <Alert status="error" title={DATA_QUERY_ERROR}>
          {DATA_QUERY_ERROR_DESCRIPTION}
        </Alert>
      )}
      {integrations.isSuccess && cards.length === 0 && (
        <p className={css({ color: 'fg.muted' })}>
          No products are enabled in this project yet.{shell.readOnly ? '' : ' Add one to get started.'}
        </p>
      )}
      <ul aria-label="Enabled products" className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
        {cards.map((integration) => (
          <StackCard key={integration.id} integration={integration} projectId={project.id} projectSlug={project.slug} readOnly={shell.readOnly} />
        ))}
      </ul>
    </div>
  );
}

function StackCard({ integration, projectId, projectSlug, readOnly }: { integration: Integration; projectId: number; projectSlug: string; readOnly: boolean }) {
  const reason = unavailableReason(integration, readOnly);
  const name = <span className={css({ fontWeight: 'semibold', textStyle: 'lg' })}>{integration.product.name}</span>;
  return (
    <li className={css({ borderWidth: '1px', borderRadius: 'l3', p: '4', display: 'flex', flexDirection: 'column', gap: '2', bg: 'bg.default' })} aria-label={integration.product.name}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2' })}>
        {reason ? name : (
          <Link to={`/${projectSlug}/stack/${integration.product.slug}`} className={css({ _hover: { color: 'colorPalette.text' } })}>
            {name}
          </Link>
        )}
        <IntegrationStatusBadge status={integration.status} productSlug={integration.product.slug} projectId={projectId} />
      </div>
      <span className={css({ fontFamily: 'mono', textStyle: 'xs', color: 'fg.muted' })}>{integration.product.slug}</span>
      <span className={css({ textStyle: 'sm', color: 'fg.muted' })}>
        Added {formatDate(integration.createdAt)}
        {integration.creatorName ? ` by ${integration.creatorName}` : ''}
      </span>
      {integration.status === 'scheduled_for_cancellation' && <CancellationInfo productSlug={integration.product.slug} projectId={projectId} />}
      {reason && <p className={css({ textStyle: 'sm', color: 'fg.warning' })}>{reason}</p>}
    </li>
  );
}
