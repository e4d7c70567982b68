import { literal } from './storage-client';

// A flat JSON object whose members `| json` reads exactly as visitParamExtractRaw does: simple keys, strings without
// escapes (so `"key":` occurs only where a key is), plain numbers, true, false, null. The LogQL json pushdown counts
// such lines in ClickHouse and hands every other line to the engine's own parser.
const FLAT_VALUE = '(?:"[^"\\\\]*"|-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null)';
const FLAT_MEMBER = `"[A-Za-z_][A-Za-z0-9_]*":${FLAT_VALUE}`;
export const FLAT_JSON = `^\\{${FLAT_MEMBER}(?:,${FLAT_MEMBER})*\\}$`;

/** A key as it occurs in a flat line: without escapes no string can hold a `"`, so this matches only keys. */
const FLAT_KEY = '"[A-Za-z_][A-Za-z0-9_]*":';

/**
 * log_samples' column that holds, per line, whether it is flat JSON with no key repeated (`| json` keeps a repeated
 * key's last value, visitParamExtractRaw its first): computed once when the line is written, because one RE2 match
 * per row at query time cost ClickHouse 18.16 more than the rest of the query (its per-call overhead: even
 * `match(line, '^\\{"')` costs more than reading the lines), and the repeat test per grouping key copies every
 * line's tail. Rows written before the column existed get it computed as they are read. The name carries a version:
 * a different pattern needs a new column.
 */
export const JSON_FLAT_COLUMN = 'json_flat_v1';
export const JSON_FLAT_TYPE = `UInt8 MATERIALIZED match(line, ${literal(FLAT_JSON)}) AND arrayUniq(extractAll(line, ${literal(FLAT_KEY)})) = length(extractAll(line, ${literal(FLAT_KEY)}))`;
