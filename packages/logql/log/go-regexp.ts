import type { RE2JS } from 're2js';
import { expandGo, groupGetter } from '../../re2-pattern/go-expand';

// Go's ReplaceAllString for LogQL's regexReplaceAll (the expansion itself is re2-pattern/go-expand.ts).

/** Go's ReplaceAllString (or ReplaceAllLiteralString). */
export function goReplaceAll(re: RE2JS, src: string, repl: string, literal: boolean): string {
  const m = re.matcher(src);
  let out = '';
  let last = 0;
  let lastMatchEnd = -1;
  while (m.find()) {
    const start = m.start();
    const end = m.end();
    // Go skips an empty match right after the previous match.
    if (start === end && start === lastMatchEnd) continue;
    out += src.slice(last, start) + (literal ? repl : expandGo(repl, groupGetter(re, m)));
    last = end;
    lastMatchEnd = end;
  }
  return out + src.slice(last);
}
