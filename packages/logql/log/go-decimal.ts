// The float arithmetic of Loki's templates (sprig's addf, subf, mulf, divf): each float is taken as its shortest
// decimal text, the operation is exact in decimal (division rounded half away from zero to 16 places, as
// shopspring/decimal's DivisionPrecision), and the result is read back as the nearest float64.

interface Decimal {
  coef: bigint;
  /** value = coef × 10^exp */
  exp: number;
}

const DIVISION_PRECISION = 16;

function fromFloat(x: number): Decimal {
  if (!Number.isFinite(x)) throw new RangeError(`${x} is not a decimal`);
  const [mantissa, e = '0'] = x.toExponential().split('e');
  const [int, frac = ''] = mantissa.replace('-', '').split('.');
  const coef = BigInt(int + frac) * (x < 0 ? -1n : 1n);
  return { coef, exp: Number(e) - frac.length };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.coef * 10n ** BigInt(a.exp - exp), b.coef * 10n ** BigInt(b.exp - exp), exp];
}

function toFloat(d: Decimal): number {
  return Number(`${d.coef}e${d.exp}`);
}

const OPS: Record<'add' | 'sub' | 'mul' | 'div', (a: Decimal, b: Decimal) => Decimal> = {
  add: (a, b) => {
    const [x, y, exp] = align(a, b);
    return { coef: x + y, exp };
  },
  sub: (a, b) => {
    const [x, y, exp] = align(a, b);
    return { coef: x - y, exp };
  },
  mul: (a, b) => ({ coef: a.coef * b.coef, exp: a.exp + b.exp }),
  div: (a, b) => {
    if (b.coef === 0n) throw new RangeError('decimal division by 0');
    // a / b to DIVISION_PRECISION places: scale so the quotient is an integer count of 10^-precision.
    const shift = DIVISION_PRECISION + 1 + a.exp - b.exp;
    const num = shift >= 0 ? a.coef * 10n ** BigInt(shift) : a.coef / 10n ** BigInt(-shift);
    const q = num / b.coef;
    const negative = q < 0n;
    const abs = negative ? -q : q;
    // One guard digit, rounded half away from zero.
    const rounded = (abs + 5n) / 10n;
    return { coef: negative ? -rounded : rounded, exp: -DIVISION_PRECISION };
  },
};

/** sprig's decimal operation over floats, left to right: `subf 5 1.5 3` is 5 − 1.5 − 3. */
export function decimalFold(op: keyof typeof OPS, values: number[]): number {
  if (values.some((v) => !Number.isFinite(v))) return values.reduce((a, b) => (op === 'add' ? a + b : op === 'sub' ? a - b : op === 'mul' ? a * b : a / b));
  let acc = fromFloat(values[0]);
  for (const v of values.slice(1)) acc = OPS[op](acc, fromFloat(v));
  return toFloat(acc);
}
