// The explorer's time range: a relative one (last 5 minutes … 7 days, ending now at each run) or an absolute one typed
// as two UTC times, each checked at its field (format, and the end after the start) before it is applied.
import { useEffect, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Field, Input, NativeSelect } from '../../../../components/ui/field';
import { checkAbsoluteRange, formatTime, RELATIVE_RANGES, type ExplorerRangeSetting } from '../../../../machines/qryn-explorer/explorer-url';

const ABSOLUTE = 'absolute';

export function TimeRangePicker({ value, onChange, now = Date.now }: { value: ExplorerRangeSetting; onChange: (range: ExplorerRangeSetting) => void; now?: () => number }) {
  const [absolute, setAbsolute] = useState(value.kind === 'absolute');
  const [fromText, setFromText] = useState(value.kind === 'absolute' ? formatTime(value.from) : '');
  const [toText, setToText] = useState(value.kind === 'absolute' ? formatTime(value.to) : '');
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});

  // The address changed (back, a link): the fields follow it.
  useEffect(() => {
    setAbsolute(value.kind === 'absolute');
    if (value.kind === 'absolute') {
      setFromText(formatTime(value.from));
      setToText(formatTime(value.to));
    }
    setErrors({});
  }, [value]);

  const choose = (choice: string) => {
    if (choice === ABSOLUTE) {
      // Start from the range in force, so that the fields hold real times to edit.
      const end = value.kind === 'absolute' ? value.to : now();
      const start = value.kind === 'absolute' ? value.from : end - (RELATIVE_RANGES.find((r) => r.value === value.value)?.ms ?? 3_600_000);
      setFromText(formatTime(start));
      setToText(formatTime(end));
      setAbsolute(true);
      return;
    }
    setAbsolute(false);
    setErrors({});
    onChange({ kind: 'relative', value: choice });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAbsoluteRange(fromText, toText);
    setErrors({ from: checked.from, to: checked.to });
    if (checked.range) onChange({ kind: 'absolute', ...checked.range });
  };

  return (
    <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-start' })}>
      <Field label="Time range" className={css({ minW: '44' })}>
        <NativeSelect value={absolute ? ABSOLUTE : value.kind === 'relative' ? value.value : ABSOLUTE} onChange={(e) => choose(e.target.value)}>
          {RELATIVE_RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
          <option value={ABSOLUTE}>Absolute (from, to)</option>
        </NativeSelect>
      </Field>
      {absolute && (
        <form aria-label="Absolute time range" noValidate onSubmit={apply} className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-start' })}>
          <Field label="From (UTC)" errorText={errors.from} helperText="YYYY-MM-DD HH:mm:ss" className={css({ w: '52' })}>
            <Input name="from" value={fromText} onChange={(e) => setFromText(e.target.value)} autoComplete="off" />
          </Field>
          <Field label="To (UTC)" errorText={errors.to} helperText="YYYY-MM-DD HH:mm:ss" className={css({ w: '52' })}>
            <Input name="to" value={toText} onChange={(e) => setToText(e.target.value)} autoComplete="off" />
          </Field>
          <Button type="submit" variant="outline" className={css({ mt: '6' })}>
            Apply range
          </Button>
        </form>
      )}
    </div>
  );
}
