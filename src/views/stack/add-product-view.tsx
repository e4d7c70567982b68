// /{projectSlug}/stack/add: the catalogue (spec 001 §2 "Resource actions"; design in docs/stack.md). Each product
// shows its name, description, tags, availability and dependencies, and adds itself to the current project through
// the one enable flow.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, useNavigate } from 'react-router';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/spinner';
import { enableProductMachine } from '../../machines/enable-product/enable-product.machine';
import { enableProduct, loadConfigOptions } from '../../services/stack';
import { useShellData } from '../shell/use-shell-data';
import { EnableProductDialog } from './enable-product-dialog';
import { DATA_QUERY_ERROR, DATA_QUERY_ERROR_DESCRIPTION } from './stack-rules';
import { useDocumentTitle } from './use-document-title';

export function AddProductView() {
  const shell = useShellData();
  const project = shell.currentProject!;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const products = useQuery(queries.products());
  const integrations = useQuery(queries.integrations(project.id));
  useDocumentTitle('Add a product');
  const actor = useActorRef(
    enableProductMachine.provide({
      actors: {
        loadConfigOptions: fromPromise(({ input }) => loadConfigOptions(input.productSlug, input.projectId)),
        enableProduct: fromPromise(({ input }) => enableProduct(input.productSlug, input.projectId, input.input)),
      },
      actions: {
        openProduct: (_, params) => navigate(`/${params.projectSlug}/stack/${params.productSlug}`),
        refreshIntegrations: () => {
          void queryClient.invalidateQueries({ queryKey: ['integrations'] });
          void queryClient.invalidateQueries({ queryKey: ['users', 'products'] });
        },
      },
    }),
  );
  const chosen = useSelector(actor, (s) => s.context.productSlug);
  const busy = useSelector(actor, (s) => !s.matches('idle') && !s.matches('enabled'));
  const nameOf = (slug: string) => products.data?.find((p) => p.slug === slug)?.name ?? slug;
  const live = new Set((integrations.data ?? []).filter((i) => i.status !== 'cancelled_by_user').map((i) => i.product.slug));

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header>
        <Link to={`/${project.slug}/stack`} className={css({ textStyle: 'sm', color: 'fg.muted', _hover: { color: 'colorPalette.text' } })}>
          ← Stack
        </Link>
        <h1 className={css({ textStyle: { base: '2xl', md: '3xl' }, fontWeight: 'semibold', mt: '1' })}>Add a product</h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>Choose a product to add to {project.name}. Every product starts with a 14-day trial.</p>
      </header>
      {shell.readOnly && <Alert status="info">Your access to this organization is read-only: ask an owner to add products.</Alert>}
      {(products.isPending || integrations.isPending) && <Skeleton height="24" aria-label="Loading the catalogue" />}
      {(products.isError || integrations.isError) && (
        <Alert status="error" title={DATA_QUERY_ERROR}>
          {DATA_QUERY_ERROR_DESCRIPTION}
        </Alert>
      )}
      {products.isSuccess && integrations.isSuccess && (
        <ul aria-label="Products" className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
          {products.data.map((product) => {
            const missing = product.dependencies.filter((d) => !live.has(d));
            const enabled = live.has(product.slug);
            return (
              <li key={product.slug} aria-label={product.name} className={css({ borderWidth: '1px', borderRadius: 'l3', p: '4', display: 'flex', flexDirection: 'column', gap: '2', bg: 'bg.default' })}>
                <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '2', alignItems: 'center' })}>
                  <h2 className={css({ fontWeight: 'semibold', textStyle: 'lg' })}>{product.name}</h2>
                  {enabled ? <Badge tone="success">Enabled</Badge> : !product.isAvailable ? <Badge>Not available</Badge> : null}
                </div>
                <p className={css({ textStyle: 'sm', color: 'fg.muted', flex: '1' })}>{product.description}</p>
                <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap' })}>
                  {product.tags.map((tag) => (
                    <Badge key={tag} tone="neutral">
                      {tag}
                    </Badge>
                  ))}
                </div>
                {product.dependencies.length > 0 && (
                  <p className={css({ textStyle: 'xs', color: missing.length ? 'fg.warning' : 'fg.muted' })}>
                    Requires {product.dependencies.map(nameOf).join(', ')}
                    {missing.length ? ' in this project first.' : ' (enabled).'}
                  </p>
                )}
                {enabled ? (
                  <Link to={`/${project.slug}/stack/${product.slug}`} className={css({ textStyle: 'sm', color: 'colorPalette.text' })}>
                    Open {product.name}
                  </Link>
                ) : (
                  <Button
                    disabled={shell.readOnly || !product.isAvailable || busy}
                    loading={busy && chosen === product.slug}
                    onClick={() => actor.send({ type: 'enable.start', productSlug: product.slug, projectId: String(project.id), projectSlug: project.slug })}
                  >
                    {/* The product's name is in the visible text: a label that differs from it confuses voice control. */}
                    Add {product.name} to this project
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <EnableProductDialog actor={actor} productName={nameOf(chosen)} />
    </div>
  );
}
