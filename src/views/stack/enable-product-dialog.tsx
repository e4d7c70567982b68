// The enable flow's screens (spec 001 §2 Enabling a product), driven by one enable-product actor: the show-config
// form of qryn and Hepic, the show-info step (qryn's API KEY and API SECRET with copy buttons and a JSON download),
// and the progress and errors of products enabled directly.
import { Field as ArkField } from '@ark-ui/react/field';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { css, cx } from 'styled-system/css';
import { input } from 'styled-system/recipes/input';
import type { ActorRefFrom } from 'xstate';
import { Alert } from '../../components/ui/alert';
import { Button, buttonStyles } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { Dialog } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { formatCents } from '../../lib/format';
import type { EnableProductMachine, FieldErrors } from '../../machines/enable-product/enable-product.machine';
import type { ConfigOptions } from '../../services/stack';

type Actor = ActorRefFrom<EnableProductMachine>;

/** The label of a retention plan is the part of its name after the first dash (spec 001 §2 qryn Config). */
export const retentionLabel = (name: string) => (name.includes('-') ? name.slice(name.indexOf('-') + 1) : name);

interface SelectField {
  name: string;
  label: string;
  required: boolean;
  options: { value: string; label: string }[];
}

function configFields(options: ConfigOptions): SelectField[] {
  const storage = {
    name: 'cluster_id',
    label: 'Storage',
    required: true,
    options: options.resources.map((r) => ({ value: r.clickhouseClusterId, label: `${r.name} (${r.regionName}, ${r.continent})` })),
  };
  if (options.kind === 'qryn') {
    return [
      storage,
      { name: 'writer_region_code', label: 'Writer region', required: true, options: options.writerRegions.map((r) => ({ value: r.code, label: `${r.name} (${r.continent})` })) },
      { name: 'ttl_addon_id', label: 'Retention plan', required: false, options: options.retentionPolicies.map((p) => ({ value: p.id, label: retentionLabel(p.name) })) },
    ];
  }
  return [
    { name: 'price_id', label: 'Pricing plan', required: true, options: options.plans.map((p) => ({ value: p.id, label: `${p.description} (${formatCents(p.price)}/month)` })) },
    storage,
  ];
}

const fieldError = (errors: FieldErrors, name: string) => errors[name]?.join(' ') || undefined;

/** The JSON a user downloads from show-info: the rows of the step, keyed as the API names them. */
export function infoJson(productSlug: string, items: readonly { label: string; value: string }[]): string {
  const body: Record<string, string> = { product: productSlug };
  for (const item of items) body[item.label.toLowerCase().replace(/\s+/g, '_')] = item.value;
  return JSON.stringify(body, null, 2);
}

export function EnableProductDialog({ actor, productName }: { actor: Actor; productName: string }) {
  const state = useSelector(actor, (s) => s);
  const { context } = state;
  const open = !state.matches('idle') && !state.matches('enabled');
  const close = () => actor.send(state.matches('showConfig') || state.matches('showInfo') || state.matches('loadingConfig') ? { type: 'config.dismiss' } : { type: 'enable.reset' });
  const busy = state.matches('submitting') || state.matches('enabling');
  const title = state.matches('showInfo') ? `${productName} is enabled` : `Add ${productName || 'a product'}`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const values: Record<string, string> = {};
    for (const [key, value] of data.entries()) if (typeof value === 'string' && value !== '') values[key] = value;
    actor.send({ type: 'config.submit', values });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) close();
      }}
      title={title}
      description={state.matches('showInfo') ? 'Keep these values: the secret is shown only now.' : undefined}
    >
      {state.matches('invalid') && (
        <Alert status="error" title="There is an error with the selected product">
          {Object.values(context.fieldErrors).flat().map((message) => (
            <span key={message} className={css({ display: 'block' })}>
              {message}
            </span>
          ))}
        </Alert>
      )}
      {state.matches('loadingConfig') && <Spinner label="Loading the configuration options" />}
      {state.matches('enabling') && <Spinner label={`Enabling ${productName}`} />}
      {state.matches('failed') && context.error && (
        <Alert status="error" title={context.error.message}>
          {context.error.description}
        </Alert>
      )}
      {(state.matches('showConfig') || state.matches('submitting')) && context.options && (
        <form onSubmit={submit} noValidate aria-label={`Configure ${productName}`} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          {context.error && (
            <Alert status="error" title={context.error.message}>
              {context.error.description}
            </Alert>
          )}
          {configFields(context.options).map((f) => (
            <Field key={f.name} label={f.label} required={f.required} errorText={fieldError(context.fieldErrors, f.name)} disabled={busy}>
              <ArkField.Select name={f.name} defaultValue={context.values[f.name] ?? ''} className={cx(input({ size: 'md' }), css({ pr: '8' }))}>
                <option value="">{f.required ? 'Select…' : 'Default'}</option>
                {f.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </ArkField.Select>
            </Field>
          ))}
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3' })}>
            <Button type="button" variant="outline" disabled={busy} onClick={() => actor.send({ type: 'config.dismiss' })}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Enable {productName}
            </Button>
          </div>
        </form>
      )}
      {state.matches('showInfo') && context.result && (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {context.result.items.length === 0 && <p>{context.result.message}</p>}
          <dl className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
            {context.result.items.map((item) => (
              <div key={item.label} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
                <dt className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>{item.label}</dt>
                <dd className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                  <code className={css({ fontFamily: 'mono', textStyle: 'sm', wordBreak: 'break-all', flex: '1' })}>{item.value}</code>
                  <CopyButton value={item.value} label={`Copy ${item.label}`} />
                </dd>
              </div>
            ))}
          </dl>
          <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '3', flexWrap: 'wrap' })}>
            {context.result.hasJsonDownload && (
              <a
                className={buttonStyles({ variant: 'outline' })}
                download={`${context.productSlug}-credentials.json`}
                href={`data:application/json;charset=utf-8,${encodeURIComponent(infoJson(context.productSlug, context.result.items))}`}
              >
                Download JSON
              </a>
            )}
            <Link className={buttonStyles({ variant: 'outline' })} to={`/${context.projectSlug}/stack/${context.productSlug}`} onClick={() => actor.send({ type: 'config.dismiss' })}>
              Open {productName}
            </Link>
            <Button onClick={() => actor.send({ type: 'config.dismiss' })}>Done</Button>
          </div>
        </div>
      )}
      {(state.matches('failed') || state.matches('invalid')) && (
        <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
          <Button variant="outline" onClick={() => actor.send({ type: 'enable.reset' })}>
            Close
          </Button>
        </div>
      )}
    </Dialog>
  );
}
