// /system-status and /{projectSlug}/system-status (spec 001 §2 System status, §4 product main status). It reads the
// platform's real health checks and refreshes on its own.
import { useQuery } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { productMainStatus } from '../../../contract/integrations';
import { queries } from '../../app/query-keys';
import { Alert } from '../../components/ui/alert';
import { Skeleton } from '../../components/ui/spinner';
import { DATA_QUERY_ERROR, DATA_QUERY_ERROR_DESCRIPTION } from '../stack/stack-rules';
import { useDocumentTitle } from '../stack/use-document-title';

export const STATUS_REFRESH_MS = 10_000;
export const ALL_OPERATIONAL = 'All services are operational';
export const SOME_NOT_OPERATIONAL = 'Some services are not operational';
const DOT = { SUCCESS: 'green.9', WARNING: 'amber.9', ERROR: 'red.9' } as const;
const MAIN_TEXT = { SUCCESS: 'Operational', WARNING: 'Partially operational', ERROR: 'Temporarily Down, try again later' } as const;

export function SystemStatusView() {
  const status = useQuery({ ...queries.serviceStatus(), refetchInterval: STATUS_REFRESH_MS });
  useDocumentTitle('System status');
  const all = status.data?.every((p) => productMainStatus(p.services) === 'SUCCESS') ?? false;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header>
        <h1 className={css({ textStyle: { base: '2xl', md: '3xl' }, fontWeight: 'semibold' })}>System status</h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>The health of the platform and of every product, checked now and every {STATUS_REFRESH_MS / 1000} seconds.</p>
      </header>
      {status.isPending && <Skeleton height="24" aria-label="Loading the system status" />}
      {status.isError && !status.data && (
        <Alert status="error" title={DATA_QUERY_ERROR}>
          {DATA_QUERY_ERROR_DESCRIPTION}
        </Alert>
      )}
      {status.data && (all ? <Alert status="success">{ALL_OPERATIONAL}</Alert> : <Alert status="warning">{SOME_NOT_OPERATIONAL}</Alert>)}
      {status.data && (
        <ul aria-label="Products" className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
          {status.data.map((product) => {
            const main = productMainStatus(product.services);
            return (
              <li key={product.slug} aria-label={product.product} data-status={main} className={css({ borderWidth: '1px', borderRadius: 'l3', p: '4', display: 'flex', flexDirection: 'column', gap: '2', bg: 'bg.default' })}>
                <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
                  <span aria-hidden="true" className={css({ w: '2.5', h: '2.5', borderRadius: 'full', flexShrink: '0' })} style={{ background: `var(--colors-${DOT[main].replace('.', '-')})` }} />
                  <h2 className={css({ fontWeight: 'semibold' })}>{product.product}</h2>
                </div>
                {product.services.length <= 1 ? (
                  <p className={css({ textStyle: 'sm', color: 'fg.muted' })}>{main === 'SUCCESS' ? 'Operational' : MAIN_TEXT.ERROR}</p>
                ) : (
                  <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
                    {product.services.map((service) => (
                      <li key={service.name} className={css({ display: 'flex', justifyContent: 'space-between', textStyle: 'sm', gap: '2' })}>
                        <span>{service.name}</span>
                        <span className={css({ color: service.running ? 'fg.muted' : 'fg.error' })}>{service.running ? 'Operational' : MAIN_TEXT.ERROR}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
