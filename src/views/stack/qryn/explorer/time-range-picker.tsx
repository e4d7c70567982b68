// The explorer's time range: a relative one (last 5 minutes … 7 days, ending now at each run) or a custom one typed
// in two fields, each an absolute UTC time or a time relative to now as Grafana writes it (`now-3h`, `now-1d/d`), each
// checked at its field (format, and the end after the start) before it is applied.
import { useEffect, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../../components/ui/button';
import { Field, Input, NativeSelect } from '../../../../components/ui/field';
import { checkAbsoluteRange, formatTime, resolveRange, RELATIVE_RANGES, type ExplorerRangeSetting } from '../../../../machines/qryn-explorer/explorer-url';

const CUSTOM = 'absolute';
const HELP = 'YYYY-MM-DD HH:mm:ss (UTC), or now-3h, now-1d/d';

/** A range end as its field shows it: the typed expression, or the time. */
const fieldText = (value: ExplorerRangeSetting, side: 'from' | 'to') => {
  if (value.kind === 'absolute') return formatTime(value[side]);
  if (value.kind === 'expression') return /^\d+$/.test(value[side]) ? formatTime(Number(value[side])) : value[side];
  return '';
};

export function TimeRangePicker({ value, onChange, now = Date.now }: { value: ExplorerRangeSetting; onChange: (range: ExplorerRangeSetting) => void; now?: () => number }) {
  const custom = value.kind !== 'relative';
  const [open, setOpen] = useState(custom);
  const [fromText, setFromText] = useState(fieldText(value, 'from'));
  const [toText, setToText] = useState(fieldText(value, 'to'));
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});

  // The address changed (back, a link): the fields follow it.
  useEffect(() => {
    setOpen(value.kind !== 'relative');
    if (value.kind !== 'relative') {
      setFromText(fieldText(value, 'from'));
      setToText(fieldText(value, 'to'));
    }
    setErrors({});
  }, [value]);

  const choose = (choice: string) => {
    if (choice === CUSTOM) {
      // Start from the range in force, written as Grafana writes a relative one, so that the fields hold times to edit.
      if (value.kind === 'relative') {
        setFromText(value.value);
        setToText('now');
      }
      setOpen(true);
      return;
    }
    setOpen(false);
    setErrors({});
    onChange({ kind: 'relative', value: choice });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAbsoluteRange(fromText, toText, now());
    setErrors({ from: checked.from, to: checked.to });
    if (checked.range) onChange(checked.range);
  };

  const resolved = value.kind === 'expression' ? resolveRange(value, now()) : null;
  return (
    <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-start' })}>
      <Field label="Time range" className={css({ minW: '44' })}>
        <NativeSelect value={open || custom ? CUSTOM : value.value} onChange={(e) => choose(e.target.value)}>
          {RELATIVE_RANGES.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
          <option value={CUSTOM}>Custom (from, to)</option>
        </NativeSelect>
      </Field>
      {open && (
        <form aria-label="Custom time range" noValidate onSubmit={apply} className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'flex-start' })}>
          <Field label="From" errorText={errors.from} helperText={HELP} className={css({ w: '56' })}>
            <Input name="from" value={fromText} onChange={(e) => setFromText(e.target.value)} autoComplete="off" />
          </Field>
          <Field label="To" errorText={errors.to} helperText={resolved ? `Now ${formatTime(resolved.from)} to ${formatTime(resolved.to)} UTC` : HELP} className={css({ w: '56' })}>
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
