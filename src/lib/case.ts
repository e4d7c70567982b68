// The API speaks snake_case and the console camelCase (spec section 7). These convert object keys deeply,
// with types that follow the conversion so decoded wire data keeps its shape in TypeScript.

type CamelizeString<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelizeString<Tail>>}`
  : S;

type SnakeizeString<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeizeString<Tail>}`
  : S;

export type Camelize<T> = T extends readonly (infer Item)[]
  ? Camelize<Item>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? CamelizeString<K> : K]: Camelize<T[K]> }
      : T;

export type Snakeize<T> = T extends readonly (infer Item)[]
  ? Snakeize<Item>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeizeString<K> : K]: Snakeize<T[K]> }
      : T;

export function camelCaseKey(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

export function snakeCaseKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[convert(key)] = convertKeys(item, convert);
  return result;
}

export function camelizeKeys<T>(value: T): Camelize<T> {
  return convertKeys(value, camelCaseKey) as Camelize<T>;
}

export function snakeizeKeys<T>(value: T): Snakeize<T> {
  return convertKeys(value, snakeCaseKey) as Snakeize<T>;
}
