import type { RE2JS } from 're2js';

// Go's regexp Expand, the one expansion of `$1`, `${1}`, `$name`, `${name}` and `$$` that PromQL's label_replace and
// LogQL's label_replace and regexReplaceAll share. A name runs as far as letters, digits and `_` go (so `$1x` is the
// group named "1x", empty when absent, as in Go); a `$` that starts no name stays a `$`.

export function expandGo(template: string, group: (ref: string) => string): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = template[i + 1];
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    let end = i + 1;
    if (next === '{') {
      const close = template.indexOf('}', i + 2);
      const inner = close < 0 ? '' : template.slice(i + 2, close);
      if (close >= 0 && /^\w+$/.test(inner)) {
        name = inner;
        end = close + 1;
      }
    } else {
      const m = /^\w+/.exec(template.slice(i + 1));
      if (m) {
        name = m[0];
        end = i + 1 + m[0].length;
      }
    }
    if (name === undefined) {
      out += '$';
      continue;
    }
    out += group(name);
    i = end - 1;
  }
  return out;
}

export function groupGetter(re: RE2JS, m: ReturnType<RE2JS['matcher']>): (ref: string) => string {
  const named = re.namedGroups() as Record<string, number>;
  return (ref) => {
    if (/^\d+$/.test(ref)) {
      const n = Number(ref);
      return n <= m.groupCount() ? (m.group(n) ?? '') : '';
    }
    const idx = named[ref];
    return idx === undefined ? '' : (m.group(idx) ?? '');
  };
}

/** The expansion of `repl` for an anchored whole-string match, or undefined when it does not match (label_replace). */
export function goExpandMatch(re: RE2JS, src: string, repl: string): string | undefined {
  const m = re.matcher(src);
  if (!m.matches()) return undefined;
  return expandGo(repl, groupGetter(re, m));
}
