// Loki's pattern language (`| pattern "<ip> - <_> [<ts>]"` and the `|>` line filter): literals and captures
// alternate; `<_>` captures nothing.

type Part = { literal: string } | { capture: string };

export function parsePattern(pattern: string): Part[] {
  const parts: Part[] = [];
  const re = /<(_|[A-Za-z_][A-Za-z0-9_]*)>/g;
  let last = 0;
  for (const m of pattern.matchAll(re)) {
    if (m.index! > last) parts.push({ literal: pattern.slice(last, m.index) });
    const prev = parts[parts.length - 1];
    if (prev && 'capture' in prev) throw new Error(`consecutive capture: ${pattern}`);
    parts.push({ capture: m[1] });
    last = m.index! + m[0].length;
  }
  if (last < pattern.length) parts.push({ literal: pattern.slice(last) });
  return parts;
}

/** The captured values by name for a line (`| pattern`): as far as the line matches; empty when its head differs. */
export function patternCaptures(parts: Part[], line: string): [string, string][] {
  const out: [string, string][] = [];
  if (line.length === 0 || parts.length === 0) return out;
  let rest = line;
  let i = 0;
  const first = parts[0];
  if ('literal' in first) {
    if (!rest.startsWith(first.literal)) return out;
    rest = rest.slice(first.literal.length);
    i = 1;
  }
  while (i < parts.length) {
    const cap = parts[i] as { capture: string };
    if (i === parts.length - 1) {
      if (cap.capture !== '_') out.push([cap.capture, rest]);
      return out;
    }
    const lit = (parts[i + 1] as { literal: string }).literal;
    i += 2;
    const at = rest.indexOf(lit);
    if (at < 0) {
      if (cap.capture !== '_') out.push([cap.capture, rest]);
      return out;
    }
    if (cap.capture !== '_') out.push([cap.capture, rest.slice(0, at)]);
    rest = rest.slice(at + lit.length);
  }
  return out;
}

/** Whether a line matches the whole pattern (the `|>` line filter); captures must not be empty. */
export function patternTest(parts: Part[], line: string): boolean {
  if (line.length === 0 || parts.length === 0) return line.length === 0 && parts.length === 0;
  let off = 0;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (!('literal' in p)) continue;
    const j = line.indexOf(p.literal, off);
    if (j < 0) return false;
    if (i !== 0 && j === off) return false;
    off = j + p.literal.length;
  }
  const endsOnCapture = 'capture' in parts[parts.length - 1];
  return endsOnCapture === (off !== line.length);
}
