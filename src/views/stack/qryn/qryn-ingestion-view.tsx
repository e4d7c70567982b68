// qryn's Data Ingestion page (spec 001 §2 qryn Data ingestion): the compatibility table with its download (no column
// toggle), the Examples tabs by group and method (/data-ingestion/{group}--{method}), each page filled with the
// instance URL, API key and secret; an unknown method is the 404 'Invalid ingestion method.'.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { css } from 'styled-system/css';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonStyles } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Input } from '../../../components/ui/field';
import { createQrynToken, type QrynConfigData } from '../../../services/qryn';
import { CodeBlock } from './code-block';
import { SimpleTable } from './simple-table';
import {
  COMPATIBILITY,
  compatibilityCsv,
  compatibilityJson,
  findIngestionPage,
  INGESTION_GROUPS,
  ingestionBlocks,
  INVALID_METHOD_DESCRIPTION,
  INVALID_METHOD_MESSAGE,
} from './ingestion-pages';
import { SECRET_PLACEHOLDER } from './qryn-queries';
import { useShellData } from '../../shell/use-shell-data';

const mark = (supported: boolean) => (supported ? '✓' : '—');
const dataUrl = (type: string, text: string) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;

function CompatibilityTable() {
  return (
    <Card
      title="Compatibility"
      headerAction={
        <div className={css({ display: 'flex', gap: '2' })}>
          <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.csv" href={dataUrl('text/csv', compatibilityCsv())}>
            Download CSV
          </a>
          <a className={buttonStyles({ variant: 'outline', size: 'sm' })} download="YourData.json" href={dataUrl('application/json', compatibilityJson())}>
            Download JSON
          </a>
        </div>
      }
    >
      <SimpleTable
        label="Compatibility"
        columns={['Solution', 'Logs', 'Metrics', 'Traces']}
        rows={COMPATIBILITY.map((row) => ({ key: row.solution, cells: [row.logs, row.metrics, row.traces].map((supported, i) => <span key={i} aria-label={supported ? 'supported' : 'not supported'}>{mark(supported)}</span>) }))}
      />
    </Card>
  );
}

function MethodNav({ current }: { current: string | undefined }) {
  const base = `/${useShellData().currentProject!.slug}/stack/qryn/data-ingestion`;
  return (
    <nav aria-label="Examples">
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        {INGESTION_GROUPS.map((group) => (
          <div key={group.id} className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
            <span className={css({ fontWeight: 'semibold', minW: '20' })}>{group.label}</span>
            <ul className={css({ display: 'flex', gap: '1', listStyle: 'none', p: '0', flexWrap: 'wrap' })}>
              {group.pages.map((page) => (
                <li key={page.id}>
                  <Link
                    to={`${base}/${page.id}`}
                    aria-current={page.id === current ? 'page' : undefined}
                    aria-label={`${group.label}: ${page.label}`}
                    className={buttonStyles({ variant: page.id === current ? 'solid' : 'outline', size: 'sm' })}
                  >
                    {page.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

/** The name of a token made for the examples: which page made it and when (minutes, UTC). */
export const examplesTokenName = (at: Date) => `Ingestion examples ${at.toISOString().slice(0, 16).replace('T', ' ')}`;

export function QrynIngestionView({ config }: { config: QrynConfigData }) {
  const { method } = useParams();
  const found = findIngestionPage(method);
  // The secret is stored hashed, so the examples cannot show it. They are filled with what the person pastes, or
  // with a write token made for them on request: named, listed in Auth Tokens and revocable there, and shown only in
  // this answer. The gateway takes a token as the password beside the API key, so every example works with it.
  const [secret, setSecret] = useState('');
  const projectId = useShellData().currentProject!.id;
  const queryClient = useQueryClient();
  const exampleToken = useMutation({
    mutationFn: () => createQrynToken(projectId, { name: examplesTokenName(new Date()), scope: 'write' }),
    onSuccess: (created) => {
      setSecret(created.token.token);
      void queryClient.invalidateQueries({ queryKey: ['qryn', projectId, 'tokens'] });
    },
  });
  const input = { url: config.url, apiKey: config.apiKey ?? '', apiSecret: secret.trim() || SECRET_PLACEHOLDER };
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <CompatibilityTable />
      <Card title="Examples">
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
          <MethodNav current={found?.page.id} />
          {found ? (
            <section aria-label={`${found.group.label}: ${found.page.label}`} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
              <h2 className={css({ textStyle: 'lg', fontWeight: 'semibold' })}>
                {found.group.label}: {found.page.label}
              </h2>
              <p>{found.page.intro}</p>
              <Field label="API secret for the examples" helperText={`Not stored or sent: it only fills the examples below. Without it they show ${SECRET_PLACEHOLDER}.`}>
                <Input type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
              </Field>
              <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
                <Button variant="outline" loading={exampleToken.isPending} onClick={() => exampleToken.mutate()}>
                  Create a token for these examples
                </Button>
                <span className={css({ color: 'fg.muted', textStyle: 'sm' })}>A write token, listed in Auth Tokens, where it can be deleted.</span>
              </div>
              {exampleToken.isError && (
                <Alert status="error" title="The token could not be created.">
                  {exampleToken.error instanceof Error ? exampleToken.error.message : 'Please try again.'}
                </Alert>
              )}
              {exampleToken.data && (
                <Alert status="success" title={`The token "${exampleToken.data.token.name}" fills the examples below.`}>
                  It is shown only now: copy what you need before leaving this page.
                </Alert>
              )}
              {ingestionBlocks(found.page, input).map((block, i) => (
                <CodeBlock key={`${block.kind}-${i}`} title={block.title} text={block.text} note={block.kind === 'code' ? `Node.js, npm install ${block.library}` : block.kind === 'config' ? block.language : 'shell'} />
              ))}
            </section>
          ) : (
            <section role="alert" aria-label="Invalid ingestion method" className={css({ display: 'flex', flexDirection: 'column', gap: '2', py: '6', textAlign: 'center' })}>
              <p className={css({ color: 'fg.muted' })}>404</p>
              <h2 className={css({ textStyle: 'xl', fontWeight: 'semibold' })}>{INVALID_METHOD_MESSAGE}</h2>
              <p>{INVALID_METHOD_DESCRIPTION}</p>
            </section>
          )}
        </div>
      </Card>
    </div>
  );
}
