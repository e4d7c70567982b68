// A refused query's alert, the same in the metrics, logs and traces panels: the reason worded for a person first
// (editor/query-error.ts), then the instance's own text, and the panel tells the shell so that the editor underlines
// the position. The panels are rendered by the page (qryn-view-page.tsx) through the shell's render props, so the
// report goes through a context the shell provides rather than through one more prop at every level.
import { createContext, useContext, useEffect } from 'react';
import { css } from 'styled-system/css';
import { Alert } from '../../../../components/ui/alert';
import { explainQueryError } from '../editor/query-error';

/** Where a panel reports its last run's error (null when it has none); nothing happens outside the shell. */
export const QueryErrorReport = createContext<(message: string | null) => void>(() => undefined);

/** Reports `error` while the panel shows it, and null once it is gone or the panel is. */
export function useReportQueryError(error: string | null) {
  const report = useContext(QueryErrorReport);
  useEffect(() => {
    report(error);
    return () => report(null);
  }, [error, report]);
}

export function QueryErrorAlert({ title, error, query }: { title: string; error: string; query: string }) {
  const explained = explainQueryError(error, query);
  return (
    <Alert status="error" title={title}>
      <span>{explained}</span>
      {explained !== error && <span className={css({ display: 'block', textStyle: 'xs', color: 'fg.muted', mt: '1' })}>The instance said: {error}</span>}
    </Alert>
  );
}
