// IP matching as Loki's ip() line and label filters: the pattern is an address, a range `a-b` or a CIDR block;
// v4 and v6 addresses are compared as numbers (a v4 pattern never matches a v6 address and back).

interface Addr {
  v6: boolean;
  n: bigint;
}

export function parseIp(text: string): Addr | undefined {
  const s = text.trim();
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) {
    const parts = s.split('.').map(Number);
    if (parts.some((p) => p > 255) || s.split('.').some((p) => p.length > 1 && p.startsWith('0'))) return undefined;
    return { v6: false, n: parts.reduce((a, p) => (a << 8n) | BigInt(p), 0n) };
  }
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (g.includes('.')) {
        const v4 = parseIp(g);
        if (!v4 || v4.v6) return undefined;
        out.push(Number(v4.n >> 16n), Number(v4.n & 0xffffn));
      } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) out.push(parseInt(g, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 2 && fill < 1) || (halves.length === 1 && fill !== 0)) return undefined;
  const all = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return { v6: true, n: all.reduce((a, g) => (a << 16n) | BigInt(g), 0n) };
}

/** A predicate over one address text, for a pattern; throws on an invalid pattern. */
export function compileIpPattern(pattern: string): (addr: string) => boolean {
  const p = pattern.trim();
  let lo: Addr | undefined;
  let hi: Addr | undefined;
  if (p.includes('/')) {
    const [base, bitsText] = p.split('/');
    const addr = parseIp(base);
    const bits = Number(bitsText);
    const width = addr?.v6 ? 128 : 32;
    if (!addr || !/^\d+$/.test(bitsText) || bits > width) throw new Error(`ip: invalid CIDR ${p}`);
    const hostBits = BigInt(width - bits);
    const start = (addr.n >> hostBits) << hostBits;
    lo = { v6: addr.v6, n: start };
    hi = { v6: addr.v6, n: start + (1n << hostBits) - 1n };
  } else if (p.includes('-')) {
    const [a, b] = p.split('-');
    lo = parseIp(a);
    hi = parseIp(b);
    if (!lo || !hi || lo.v6 !== hi.v6 || lo.n > hi.n) throw new Error(`ip: invalid range ${p}`);
  } else {
    lo = hi = parseIp(p);
    if (!lo) throw new Error(`ip: invalid address ${p}`);
  }
  const from = lo;
  const to = hi!;
  return (text) => {
    const a = parseIp(text);
    return !!a && a.v6 === from.v6 && a.n >= from.n && a.n <= to.n;
  };
}

const V4 = /\d{1,3}(?:\.\d{1,3}){3}/g;
const V6 = /[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}(?:\.\d{1,3}){0,3}/g;

/** Whether any address in a line matches (the line filter `|= ip("…")`): v4 dotted quads and v6 groups. */
export function lineHasIp(line: string, test: (addr: string) => boolean): boolean {
  for (const m of line.matchAll(V4)) if (test(m[0])) return true;
  if (line.includes(':')) for (const m of line.matchAll(V6)) if (m[0].length > 2 && test(m[0])) return true;
  return false;
}
