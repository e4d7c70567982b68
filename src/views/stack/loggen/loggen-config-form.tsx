// Loggen's configuration form (spec 001 §2 Loggen, §5 Loggen): where the logs go, their labels and rate, the run's
// length, the line format and structure, metrics and traces. A controlled form: the page owns the value, so a
// failed save leaves it exactly as the person filled it.
import { css } from 'styled-system/css';
import type { FieldErrors } from '../../../../contract/common';
import { LOGGEN_TIMEOUTS, parseExpression, SPAN_KINDS, type LogOption } from '../../../../contract/loggen';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import type { LoggenConfigForm } from '../../../services/loggen';

type Pair = { key: string; value: string };
type FormSpan = LoggenConfigForm['traces']['spans'][number];

const row = css({ display: 'flex', gap: '2', alignItems: 'flex-end', flexWrap: 'wrap' });
const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } });

function PairRows({ legend, pairs, onChange, keyLabel, valueLabel, errorText, minRows = 0 }: {
  legend: string;
  pairs: readonly Pair[];
  onChange: (pairs: Pair[]) => void;
  keyLabel: string;
  valueLabel: string;
  errorText?: string;
  minRows?: number;
}) {
  return (
    <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })} aria-describedby={errorText ? `${legend}-error` : undefined}>
      <legend className={css({ fontWeight: 'medium', mb: '1' })}>{legend}</legend>
      {pairs.map((pair, index) => (
        <div key={index} className={row}>
          <Field label={`${keyLabel} ${index + 1}`}>
            <Input value={pair.key} onChange={(e) => onChange(pairs.map((p, i) => (i === index ? { ...p, key: e.target.value } : p)))} />
          </Field>
          <Field label={`${valueLabel} ${index + 1}`}>
            <Input value={pair.value} onChange={(e) => onChange(pairs.map((p, i) => (i === index ? { ...p, value: e.target.value } : p)))} />
          </Field>
          <Button size="sm" variant="ghost" disabled={pairs.length <= minRows} onClick={() => onChange(pairs.filter((_, i) => i !== index))} aria-label={`Remove ${keyLabel.toLowerCase()} ${index + 1}`}>
            Remove
          </Button>
        </div>
      ))}
      <div>
        <Button size="sm" variant="outline" onClick={() => onChange([...pairs, { key: '', value: '' }])}>
          Add {keyLabel.toLowerCase()}
        </Button>
      </div>
      {errorText && (
        <p id={`${legend}-error`} role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
          {errorText}
        </p>
      )}
    </fieldset>
  );
}

/** Builds {{name}} or {{name({...})}} from a catalogue option and the params that differ from its defaults. */
export function buildExpression(option: LogOption, params: Record<string, unknown>): string {
  const given = Object.fromEntries(Object.entries(params).filter(([key, value]) => value !== undefined && value !== '' && option.params.find((p) => p.field === key)?.default !== value));
  return Object.keys(given).length === 0 ? `{{${option.name}}}` : `{{${option.name}(${JSON.stringify(given)})}}`;
}

function GeneratorPicker({ label, expression, options, onChange }: { label: string; expression: string; options: readonly LogOption[]; onChange: (expression: string) => void }) {
  const parsed = parseExpression(expression);
  const single = parsed && parsed.length === 1 ? parsed[0] : null;
  const option = single ? options.find((o) => o.name === single.name) : undefined;
  const params = single?.params ?? {};
  return (
    <div className={row}>
      <Select
        label={label}
        items={options.map((o) => ({ value: o.name, label: `${o.display} (${o.category})` }))}
        value={option ? [option.name] : []}
        onValueChange={([name]) => {
          const next = options.find((o) => o.name === name);
          if (next) onChange(buildExpression(next, {}));
        }}
        placeholder="Choose a generator"
      />
      {option?.params.map((param) =>
        param.options ? (
          <Select
            key={param.field}
            label={param.display}
            items={[{ value: '', label: 'Any' }, ...param.options.map((o) => ({ value: o, label: o }))]}
            value={[typeof params[param.field] === 'string' ? String(params[param.field]) : '']}
            onValueChange={([value]) => onChange(buildExpression(option, { ...params, [param.field]: value || undefined }))}
          />
        ) : (
          <Field key={param.field} label={param.display} helperText={param.description}>
            <Input
              type={param.type === 'int' || param.type === 'float' ? 'number' : 'text'}
              min={param.type === 'int' || param.type === 'float' ? 1 : undefined}
              value={String(params[param.field] ?? param.default ?? '')}
              onChange={(e) => {
                const raw = e.target.value;
                const value = param.type === 'int' || param.type === 'float' ? (raw === '' ? undefined : Number(raw)) : raw;
                onChange(buildExpression(option, { ...params, [param.field]: value }));
              }}
            />
          </Field>
        ),
      )}
    </div>
  );
}

function SpanEditor({ span, path, fields, options, onChange, onRemove }: {
  span: FormSpan;
  path: string;
  fields: readonly string[];
  options: readonly LogOption[];
  onChange: (span: FormSpan) => void;
  onRemove: () => void;
}) {
  return (
    <fieldset className={css({ borderLeftWidth: '2px', borderColor: 'border.default', ps: '3', display: 'flex', flexDirection: 'column', gap: '2' })}>
      <legend className={css({ fontWeight: 'medium' })}>Span {path}</legend>
      <div className={row}>
        <Field label={`Span ${path} name`}>
          <Input value={span.name} onChange={(e) => onChange({ ...span, name: e.target.value })} />
        </Field>
        <Select label={`Span ${path} kind`} items={SPAN_KINDS.map((k) => ({ value: k, label: k }))} value={[span.kind]} onValueChange={([kind]) => onChange({ ...span, kind: kind as FormSpan['kind'] })} />
        <Field label={`Span ${path} duration (ms)`}>
          <Input type="number" min={1} value={String(span.duration)} onChange={(e) => onChange({ ...span, duration: Number(e.target.value) })} />
        </Field>
        <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove span ${path}`}>
          Remove
        </Button>
      </div>
      {span.attributes.map((attribute, index) => (
        <div key={index} className={row}>
          <Field label={`Span ${path} attribute ${index + 1}`}>
            <Input value={attribute.name} onChange={(e) => onChange({ ...span, attributes: span.attributes.map((a, i) => (i === index ? { ...a, name: e.target.value } : a)) })} />
          </Field>
          <Select
            label="Value from"
            items={[...fields.map((f) => ({ value: `field:${f}`, label: `Log field ${f}` })), ...options.map((o) => ({ value: `fake:${o.name}`, label: o.display }))]}
            value={[attribute.resolveFromLogValue ? `field:${attribute.resolveFromLogValue}` : attribute.resolveFake ? `fake:${parseExpression(attribute.resolveFake)?.[0]?.name ?? ''}` : '']}
            onValueChange={([choice]) => {
              const [kind, name] = [choice.slice(0, choice.indexOf(':')), choice.slice(choice.indexOf(':') + 1)];
              const next = kind === 'field' ? { name: attribute.name, valueType: attribute.valueType, resolveFromLogValue: name } : { name: attribute.name, valueType: attribute.valueType, resolveFake: `{{${name}}}` };
              onChange({ ...span, attributes: span.attributes.map((a, i) => (i === index ? next : a)) });
            }}
          />
          <Button size="sm" variant="ghost" onClick={() => onChange({ ...span, attributes: span.attributes.filter((_, i) => i !== index) })} aria-label={`Remove attribute ${index + 1} of span ${path}`}>
            Remove
          </Button>
        </div>
      ))}
      <div className={row}>
        <Button size="sm" variant="outline" onClick={() => onChange({ ...span, attributes: [...span.attributes, { name: '', valueType: 'string', resolveFromLogValue: fields[0] ?? '' }] })}>
          Add attribute
        </Button>
        <Button size="sm" variant="outline" onClick={() => onChange({ ...span, spans: [...span.spans, { kind: 'client', name: '', duration: 1, attributes: [], spans: [] }] })}>
          Add nested span
        </Button>
      </div>
      {span.spans.map((child, index) => (
        <SpanEditor
          key={index}
          span={child}
          path={`${path}.${index + 1}`}
          fields={fields}
          options={options}
          onChange={(next) => onChange({ ...span, spans: span.spans.map((s, i) => (i === index ? next : s)) })}
          onRemove={() => onChange({ ...span, spans: span.spans.filter((_, i) => i !== index) })}
        />
      ))}
    </fieldset>
  );
}

export function LoggenConfigFields({ value, onChange, errors, options, readOnly }: {
  value: LoggenConfigForm;
  onChange: (value: LoggenConfigForm) => void;
  errors: FieldErrors;
  options: readonly LogOption[];
  readOnly?: boolean;
}) {
  const set = <K extends keyof LoggenConfigForm>(key: K, next: LoggenConfigForm[K]) => onChange({ ...value, [key]: next });
  const structure = value.logConfig.structure;
  const setStructure = (next: typeof structure) => set('logConfig', { ...value.logConfig, structure: next });
  return (
    <fieldset disabled={readOnly} className={css({ display: 'flex', flexDirection: 'column', gap: '5', border: 'none', p: '0', m: '0' })}>
      <Field label="qryn instance URL" required errorText={errors.url?.[0]} helperText="Where the logs are pushed; the project's qryn instance by default.">
        <Input value={value.url} onChange={(e) => set('url', e.target.value)} />
      </Field>
      <div className={grid}>
        <Field label="API key" errorText={errors.api_key?.[0]}>
          <Input value={value.apiKey} autoComplete="off" onChange={(e) => set('apiKey', e.target.value)} />
        </Field>
        <Field label="API secret" errorText={errors.api_secret?.[0]}>
          <Input type="password" value={value.apiSecret} autoComplete="off" onChange={(e) => set('apiSecret', e.target.value)} />
        </Field>
      </div>
      <PairRows legend="Labels" keyLabel="Label" valueLabel="Value" pairs={value.labels} minRows={1} onChange={(labels) => set('labels', labels)} errorText={errors.labels?.[0]} />
      <PairRows legend="Headers" keyLabel="Header" valueLabel="Header value" pairs={value.headers} onChange={(headers) => set('headers', headers)} errorText={errors.headers?.[0]} />
      <div className={grid}>
        <Field label="Rate (logs per second)" required errorText={errors.rate?.[0]}>
          <Input type="number" min={1} max={100} value={Number.isNaN(value.rate) ? '' : String(value.rate)} onChange={(e) => set('rate', e.target.value === '' ? Number.NaN : Number(e.target.value))} />
        </Field>
        <Select label="Timeout" items={LOGGEN_TIMEOUTS.map((t) => ({ value: t, label: t }))} value={[value.timeout]} onValueChange={([timeout]) => set('timeout', timeout)} errorText={errors.timeout?.[0]} invalid={Boolean(errors.timeout)} />
        <Select
          label="Format"
          items={[{ value: 'json', label: 'JSON' }, { value: 'logfmt', label: 'logfmt' }]}
          value={[value.logConfig.format]}
          onValueChange={([format]) => set('logConfig', { ...value.logConfig, format })}
        />
      </div>
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <legend className={css({ fontWeight: 'medium', mb: '1' })}>Log structure</legend>
        {structure.map((field, index) => (
          <div key={index} className={css({ display: 'flex', flexDirection: 'column', gap: '2', pb: '3', borderBottomWidth: '1px', borderColor: 'border.subtle' })}>
            <div className={row}>
              <Field label={`Field ${index + 1} name`}>
                <Input value={field.name} onChange={(e) => setStructure(structure.map((f, i) => (i === index ? { ...f, name: e.target.value } : f)))} />
              </Field>
              <Button size="sm" variant="ghost" disabled={structure.length <= 1} onClick={() => setStructure(structure.filter((_, i) => i !== index))} aria-label={`Remove field ${index + 1}`}>
                Remove
              </Button>
            </div>
            <GeneratorPicker label={`Field ${index + 1} generator`} expression={field.expression} options={options} onChange={(expression) => setStructure(structure.map((f, i) => (i === index ? { ...f, expression } : f)))} />
            <code className={css({ fontSize: 'xs', color: 'fg.muted' })}>{field.expression}</code>
          </div>
        ))}
        <div>
          <Button size="sm" variant="outline" onClick={() => setStructure([...structure, { name: '', expression: '{{text.word}}' }])}>
            Add field
          </Button>
        </div>
        {errors.log_config && (
          <ul role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
            {errors.log_config.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
      </fieldset>
      <Switch checked={value.enableMetrics} onCheckedChange={(enableMetrics) => set('enableMetrics', enableMetrics)}>
        Also send metrics (a counter of lines per level)
      </Switch>
      <Switch checked={value.traces.enabled} onCheckedChange={(enabled) => set('traces', { ...value.traces, enabled })}>
        Also send traces (one per log line)
      </Switch>
      {value.traces.enabled && (
        <Switch checked={value.traces.custom} onCheckedChange={(custom) => set('traces', { ...value.traces, custom })}>
          Custom spans
        </Switch>
      )}
      {value.traces.enabled && value.traces.custom && (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {value.traces.spans.map((span, index) => (
            <SpanEditor
              key={index}
              span={span}
              path={String(index + 1)}
              fields={structure.map((f) => f.name)}
              options={options}
              onChange={(next) => set('traces', { ...value.traces, spans: value.traces.spans.map((s, i) => (i === index ? next : s)) })}
              onRemove={() => set('traces', { ...value.traces, spans: value.traces.spans.filter((_, i) => i !== index) })}
            />
          ))}
          <div>
            <Button size="sm" variant="outline" onClick={() => set('traces', { ...value.traces, spans: [...value.traces.spans, { kind: 'server', name: '', duration: 10, attributes: [], spans: [] }] })}>
              Add span
            </Button>
          </div>
          {errors.traces && (
            <ul role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
              {errors.traces.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </fieldset>
  );
}
