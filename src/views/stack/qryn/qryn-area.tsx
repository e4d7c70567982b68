// /{projectSlug}/stack/qryn/* (spec 001 §2 qryn): Overview (.), Auth Tokens (auth), Data Ingestion
// (data-ingestion/{group}--{method}), Config (config) and the explorer (view, the qryn View), inside the stack's guard.
// A read-only member sees the Overview and the explorer (reading is what read-only is for): the other paths lead back
// to the Overview. The document title is the product name and the page's title.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { css } from 'styled-system/css';
import { configLoadErrorMessage } from '../../../../contract/qryn';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { useShellData } from '../../shell/use-shell-data';
import { RequireIntegration } from '../require-integration';
import { QrynAuthView } from './qryn-auth-view';
import { QrynConfigView } from './qryn-config-view';
import { QrynIngestionView } from './qryn-ingestion-view';
import { QrynOverviewView } from './qryn-overview-view';
import { qrynQueries } from './qryn-queries';
import { DEFAULT_INGESTION_METHOD } from './ingestion-pages';

// The qryn View (the explorer, with its editor, grammars and charts) is code-split: only those who open it load it.
const QrynViewPage = lazy(async () => ({ default: (await import('./qryn-view-page')).QrynViewPage }));

const TABS = [
  { to: '.', label: 'Overview', segment: '' },
  { to: 'auth', label: 'Auth Tokens', segment: 'auth' },
  { to: `data-ingestion/${DEFAULT_INGESTION_METHOD}`, label: 'Data Ingestion', segment: 'data-ingestion' },
  { to: 'config', label: 'Config', segment: 'config' },
  { to: 'view', label: 'Explore', segment: 'view' },
] as const;

/** The tabs a read-only member gets. */
const READ_ONLY_SEGMENTS: readonly string[] = ['', 'view'];

const segmentOf = (pathname: string) => /\/stack\/qryn\/([^/]+)/.exec(pathname)?.[1] ?? '';

/** The page title of a path under stack/qryn (the document title's second part). */
export function qrynPageTitle(pathname: string): string {
  const segment = segmentOf(pathname);
  if (segment === 'view') return 'qryn View';
  return TABS.find((t) => t.segment === segment)?.label ?? 'Overview';
}

export function QrynArea() {
  const { pathname } = useLocation();
  return (
    <RequireIntegration productSlug="qryn" pageTitle={qrynPageTitle(pathname)}>
      <QrynPages />
    </RequireIntegration>
  );
}

function QrynPages() {
  const { currentProject, readOnly } = useShellData();
  const project = currentProject!;
  const config = useQuery(qrynQueries.config(project.id));
  const base = `/${project.slug}/stack/qryn`;
  const current = segmentOf(useLocation().pathname);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Observability</h1>
        <nav aria-label="qryn">
          <ul className={css({ display: 'flex', gap: '1', listStyle: 'none', p: '0', borderBottomWidth: '1px', flexWrap: 'wrap' })}>
            {TABS.filter((t) => !readOnly || READ_ONLY_SEGMENTS.includes(t.segment)).map((t) => {
              const active = t.segment === current;
              return (
                <li key={t.label}>
                  <Link
                    to={t.to === '.' ? base : `${base}/${t.to}`}
                    aria-current={active ? 'page' : undefined}
                    className={css({ display: 'block', px: '3', py: '2', borderBottomWidth: '2px', borderColor: active ? 'accent.default' : 'transparent', fontWeight: active ? 'semibold' : 'normal', color: active ? 'fg.default' : 'fg.muted' })}
                  >
                    {t.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      {config.isPending && <Spinner size="lg" label="Loading the qryn configuration" />}
      {config.isError && (
        <Alert status="error" title={configLoadErrorMessage(project.id)}>
          {(config.error as { description?: string }).description || 'Please reload the page. If it keeps happening, contact support.'}{' '}
          <Link to={`/${project.slug}/stack`}>Go to the stack page</Link>
        </Alert>
      )}
      {config.data && (
        <Routes>
          <Route index element={<QrynOverviewView config={config.data} />} />
          {!readOnly && <Route path="auth" element={<QrynAuthView config={config.data} />} />}
          {/* A missing method is the same 404 as an unknown one (spec 001 §2), not a redirect to the default. */}
          {!readOnly && <Route path="data-ingestion" element={<QrynIngestionView config={config.data} />} />}
          {!readOnly && <Route path="data-ingestion/:method" element={<QrynIngestionView config={config.data} />} />}
          {!readOnly && <Route path="config" element={<QrynConfigView config={config.data} />} />}
          <Route
            path="view"
            element={
              <Suspense fallback={<Spinner size="lg" label="Loading the qryn View" />}>
                <QrynViewPage config={config.data} />
              </Suspense>
            }
          />
          <Route path="*" element={<Navigate to={base} replace />} />
        </Routes>
      )}
    </div>
  );
}
