import { css } from 'styled-system/css';
import { CopyButton } from '../../../components/ui/copy-button';

/** A titled example with its copy button; the text is shown exactly as it is copied. */
export function CodeBlock({ title, text, note }: { title: string; text: string; note?: string }) {
  return (
    <figure aria-label={title} className={css({ display: 'flex', flexDirection: 'column', gap: '2', m: '0' })}>
      <figcaption className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2' })}>
        <span className={css({ fontWeight: 'semibold', textStyle: 'sm' })}>
          {title}
          {note && <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}> ({note})</span>}
        </span>
        <CopyButton value={text} label={`Copy: ${title}`} />
      </figcaption>
      <pre className={css({ fontFamily: 'mono', textStyle: 'xs', bg: 'gray.a2', borderWidth: '1px', borderRadius: 'l2', p: '3', overflowX: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' })}>
        <code>{text}</code>
      </pre>
    </figure>
  );
}
