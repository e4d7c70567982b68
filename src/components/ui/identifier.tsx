import { Fragment } from 'react';
import { css } from 'styled-system/css';
import { CopyButton } from './copy-button';

// A break opportunity after each separator of a URL or id ('/', '.', ':', '-', '_', '?', '&', '=', '#'): a long
// address wraps between its parts instead of in the middle of a token.
const SEPARATED = /([/.:\-_?&=#]+)/;

/** The text with a <wbr> after each separator run; the text content stays the same string. */
export function breakable(text: string) {
  return text.split(SEPARATED).map((part, i) => (
    <Fragment key={i}>
      {part}
      {i % 2 === 1 && <wbr />}
    </Fragment>
  ));
}

/** A long identifier (an address, a key) in monospace that wraps at its separators, with a copy button beside it. */
export function Identifier({ value, label, copyLabel }: { value: string; label: string; copyLabel: string }) {
  return (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-start', minW: '0' })}>
      <code aria-label={label} title={value} className={css({ fontFamily: 'mono', textStyle: 'sm', flex: '1', minW: '0', overflowWrap: 'anywhere', py: '1' })}>
        {breakable(value)}
      </code>
      <CopyButton value={value} label={copyLabel} className={css({ flexShrink: '0' })} />
    </div>
  );
}
