// /{projectSlug}/stack/loggen (spec 001 §2 Loggen): the docs card and the configuration form; Save stores the
// configuration and starts the streamed run (the loggen-run machine), whose progress survives leaving the page.
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { css } from 'styled-system/css';
import { decodeInput } from '../../../../contract/common';
import { LoggenConfigBody, validateLoggenConfig } from '../../../../contract/loggen';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { LOGGEN_DONE, LOGGEN_FAILED, LOGGEN_RUNNING, loggenRunMachine, type RunOutcome, type RunProgress } from '../../../machines/loggen-run/loggen-run.machine';
import { snakeizeKeys } from '../../../lib/case';
import {
  checkLoggenRun,
  followLoggenRun,
  getLoggenConfig,
  listLogOptions,
  saveLoggenConfig,
  stopLoggenRun,
  type LoggenConfigForm,
} from '../../../services/loggen';
import { toast } from '../../../services/toast-store';
import { useShellData } from '../../shell/use-shell-data';
import { CancelSubscriptionButton } from '../cancel-subscription-dialog';
import { LoggenConfigFields } from './loggen-config-form';
import { LoggenRunPanel } from './loggen-run-panel';

const HOUR = 3_600_000;

export function LoggenView() {
  const { currentProject, readOnly } = useShellData();
  const projectId = currentProject!.id;
  const config = useQuery({ queryKey: ['loggen', 'config', projectId], queryFn: () => getLoggenConfig(projectId), staleTime: 10_000, retry: false });
  const options = useQuery({ queryKey: ['loggen', 'options'], queryFn: listLogOptions, staleTime: HOUR, retry: false });
  const actor = useActorRef(
    loggenRunMachine.provide({
      actors: {
        checkRun: fromPromise<RunOutcome | null>(({ signal }) => checkLoggenRun(projectId, signal)),
        saveConfig: fromPromise<{ step: string }, { config: unknown }>(({ input }) => saveLoggenConfig(projectId, input.config as LoggenConfigForm)),
        followRun: fromPromise<RunOutcome, { start: boolean; onProgress: (progress: RunProgress) => void }>(({ input, signal }) => followLoggenRun(projectId, { ...input, signal })),
        stopRun: fromPromise<void>(async () => {
          await stopLoggenRun(projectId);
        }),
      },
      actions: {
        notifyRunning: () => toast.info(LOGGEN_RUNNING),
        notifyDone: () => toast.success(LOGGEN_DONE),
        notifyFailed: (_, params) => toast.error(LOGGEN_FAILED, params.reason || undefined),
      },
    }),
  );
  const serverErrors = useSelector(actor, (s) => s.context.fieldErrors);
  // A failed save (back to idle) is said here; a failed run is said by the run panel.
  const saveError = useSelector(actor, (s) => (s.matches('idle') ? s.context.error : null));
  const [form, setForm] = useState<LoggenConfigForm | null>(null);
  const [clientErrors, setClientErrors] = useState<Record<string, string[]>>({});
  useEffect(() => {
    if (config.data && form === null) {
      const { projectId: _p, subscriptionId: _s, ...rest } = config.data;
      setForm(rest as LoggenConfigForm);
    }
  }, [config.data, form]);

  if (config.isError) {
    return (
      <Alert status="error" title="We had some issues loading the configuration of the Loggen integration">
        {(config.error as { description?: string }).description ?? 'Please reload the page. If it keeps happening, contact support.'}
      </Alert>
    );
  }
  if (!form || !options.data) return <Spinner size="lg" label="Loading the Loggen configuration" />;

  const errors = { ...serverErrors, ...clientErrors };
  const save = () => {
    // The same rules the server applies, first here: field messages at once, nothing sent.
    const wire = snakeizeKeys(form);
    const decoded = decodeInput(LoggenConfigBody, wire);
    const found = decoded.ok ? validateLoggenConfig(decoded.value, options.data) : decoded.errors;
    setClientErrors(found);
    if (Object.keys(found).length > 0) return;
    actor.send({ type: 'config.save', config: form });
  };

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '3', flexWrap: 'wrap' })}>
        <div>
          <h1 className={css({ textStyle: '2xl', fontWeight: 'semibold' })}>Loggen</h1>
          <p className={css({ color: 'fg.muted' })}>Generate sample logs, metrics and traces into this project's qryn instance.</p>
        </div>
        {/* Read-only members do not cancel subscriptions (spec 001 §6). */}
        {currentProject && !readOnly && <CancelSubscriptionButton productSlug="loggen" productName="Loggen" projectId={currentProject.id} projectSlug={currentProject.slug} />}
      </header>
      <Card title="How Loggen works" description="Loggen pushes generated log lines to your qryn instance through the same endpoint your agents use, at the rate you choose, for as long as you choose. Query them right away with the labels you set.">
        <a href="/docs/loggen" className={css({ color: 'accent.text', textDecoration: 'underline' })}>
          Read the Loggen documentation
        </a>
      </Card>
      <Card title="Configuration">
        <form
          aria-label="Loggen configuration"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
          className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
        >
          <LoggenConfigFields value={form} onChange={setForm} errors={errors} options={options.data} readOnly={readOnly} />
          {saveError && <Alert status="error">{saveError}</Alert>}
          <LoggenRunPanel actor={actor} onSave={save} disabled={readOnly} />
        </form>
      </Card>
    </div>
  );
}
