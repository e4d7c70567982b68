// Decoding an answer with its contract schema (wire form), then camelCasing it. Loaded on first use by http.ts, so
// the schema library stays out of the first paint; a streamed run (loggen.ts) decodes each line with it too.
import { Schema } from 'effect';
import { camelizeKeys, type Camelize } from '../lib/case';
import { wireDecodeFailure, type Decodable } from './http';

export function decodeWire<S extends Decodable>(schema: S, data: unknown): Camelize<S['Type']> {
  let decoded: S['Type'];
  try {
    decoded = Schema.decodeUnknownSync(schema as never)(data) as S['Type'];
  } catch (cause) {
    throw wireDecodeFailure(cause);
  }
  return camelizeKeys(decoded);
}
