// A read-only field with its copy button (Data Ingestion's endpoint and token, the Auth page's tokens).
import { css } from 'styled-system/css';
import { CopyButton } from '../../../components/ui/copy-button';
import { Field, Input } from '../../../components/ui/field';

export function ReadOnlyCopy({ label, value }: { label: string; value: string }) {
  return (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
      <Field label={label} readOnly className={css({ flex: 1 })}>
        <Input value={value} readOnly />
      </Field>
      <CopyButton value={value} aria-label={`Copy ${label}`} />
    </div>
  );
}
