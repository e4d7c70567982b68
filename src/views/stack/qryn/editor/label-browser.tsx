// The label browser beside the editor, for people who do not know the language: pick a label, tick its values (several
// at once), see the selector that builds, and 'Use query' puts it in the editor. Metrics (Prometheus labels, the
// metric name as __name__) and logs (Loki labels). Values are read scoped by the other labels' choices, so only
// combinations that exist are offered.
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Checkbox } from '../../../../components/ui/checkbox';
import { Field, NativeSelect } from '../../../../components/ui/field';
import type { LabelSource } from './label-source';
import { browserScope, buildSelector } from './selector-context';

export interface LabelBrowserProps {
  language: 'promql' | 'logql';
  labels: LabelSource;
  /** Tells one instance, credential and range's answers from another's in the query cache. */
  cacheKey: string;
  onUseQuery: (selector: string) => void;
}

export function LabelBrowser({ language, labels, cacheKey, onUseQuery }: LabelBrowserProps) {
  const [label, setLabel] = useState('');
  const [choices, setChoices] = useState<Record<string, string[]>>({});
  const names = useQuery({ queryKey: ['qryn-explorer', cacheKey, language, 'names'], queryFn: () => labels.names(), retry: false });
  // The other labels' choices scope the values offered for this one.
  const scope = useMemo(() => browserScope(Object.fromEntries(Object.entries(choices).filter(([name]) => name !== label)), language), [choices, label, language]);
  const values = useQuery({
    queryKey: ['qryn-explorer', cacheKey, language, 'values', label, scope ?? ''],
    queryFn: () => labels.values(label, scope),
    enabled: label !== '',
    retry: false,
  });
  const selector = buildSelector(choices, language);
  const chosen = choices[label] ?? [];
  const toggle = (value: string, on: boolean) =>
    setChoices((current) => {
      const list = current[label] ?? [];
      return { ...current, [label]: on ? [...list, value] : list.filter((v) => v !== value) };
    });
  return (
    <section aria-label="Label browser" className={css({ display: 'flex', flexDirection: 'column', gap: '3', minW: '0' })}>
      <h2 className={css({ textStyle: 'md', fontWeight: 'semibold' })}>Label browser</h2>
      <Field label="Label" errorText={names.isError ? (names.error as Error).message : undefined}>
        <NativeSelect value={label} onChange={(e) => setLabel(e.target.value)} disabled={!names.data}>
          <option value="">{names.isPending ? 'Loading labels…' : names.data?.length === 0 ? 'No labels in this range' : 'Choose a label'}</option>
          {names.data?.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {label !== '' && (
        <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '1', maxH: '56', overflowY: 'auto', borderWidth: '0', p: '0', m: '0' })}>
          <legend className={css({ textStyle: 'sm', fontWeight: 'medium', mb: '1' })}>Values of {label}</legend>
          {values.isPending && <p>Loading values…</p>}
          {values.isError && <p role="alert">{(values.error as Error).message}</p>}
          {values.data?.length === 0 && <p>No values in this range.</p>}
          {values.data?.map((v) => (
            <Checkbox key={v} size="sm" checked={chosen.includes(v)} onCheckedChange={(on) => toggle(v, on)}>
              <span className={css({ fontFamily: 'mono', wordBreak: 'break-all' })}>{v}</span>
            </Checkbox>
          ))}
        </fieldset>
      )}
      <div>
        <span id="label-browser-selector" className={css({ textStyle: 'sm', fontWeight: 'medium' })}>
          Selector
        </span>
        <output aria-labelledby="label-browser-selector" className={css({ display: 'block', fontFamily: 'mono', textStyle: 'sm', wordBreak: 'break-all', p: '2', bg: 'bg.subtle', borderRadius: 'l2' })}>
          {selector}
        </output>
      </div>
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button size="sm" disabled={selector === '{}'} onClick={() => onUseQuery(selector)}>
          Use query
        </Button>
        <Button size="sm" variant="outline" disabled={selector === '{}'} onClick={() => setChoices({})}>
          Clear
        </Button>
      </div>
    </section>
  );
}
