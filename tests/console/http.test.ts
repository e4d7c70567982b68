import { Schema } from 'effect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { camelizeKeys, snakeizeKeys } from '../../src/lib/case';
import {
  ApiError,
  AuthenticationError,
  DataMutationError,
  DataQueryError,
  errorBodyMessage,
  PARSE_ERROR_MESSAGE,
  ServerError,
  ValidationError,
} from '../../src/services/errors';
import { mapHttpError } from '../../src/services/http';
import { decodeWire } from '../../src/services/schema-decode';

afterEach(() => vi.restoreAllMocks());

describe('error body message', () => {
  it('takes message, then error, then details, else Unknown error', () => {
    expect(errorBodyMessage({ message: 'm', error: 'e', details: 'd' })).toBe('m');
    expect(errorBodyMessage({ error: 'e', details: 'd' })).toBe('e');
    expect(errorBodyMessage({ details: 'd' })).toBe('d');
    expect(errorBodyMessage({})).toBe('Unknown error');
    expect(errorBodyMessage(null)).toBe('Unknown error');
  });
});

describe('HTTP error mapping (spec 000 section 8)', () => {
  it('maps GET failures', () => {
    expect(mapHttpError('GET', 400, { message: 'bad' })).toBeInstanceOf(DataQueryError);
    expect(mapHttpError('GET', 404, { message: 'gone' })).toBeInstanceOf(DataQueryError);
    expect(mapHttpError('GET', 401, {})).toBeInstanceOf(AuthenticationError);
    expect(mapHttpError('GET', 403, {})).toBeInstanceOf(AuthenticationError);
    expect(mapHttpError('GET', 500, {})).toBeInstanceOf(ServerError);
    expect(mapHttpError('GET', 502, {})).toBeInstanceOf(ServerError);
    const other = mapHttpError('GET', 409, { message: 'conflict' });
    expect(other).toBeInstanceOf(ApiError);
    expect(other).not.toBeInstanceOf(DataQueryError);
  });
  it('treats a refused mutation (403) as a shown error, not a logout', () => {
    const refused = mapHttpError('POST', 403, { message: 'Forbidden', description: 'Read-only members cannot change anything.' });
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).not.toBeInstanceOf(AuthenticationError);
    expect((refused as ApiError).description).toBe('Read-only members cannot change anything.');
    expect(mapHttpError('POST', 401, {})).toBeInstanceOf(AuthenticationError);
  });
  it('reads the card provider\'s nested error message', () => {
    expect(mapHttpError('POST', 402, { error: { message: 'Your card was declined.', code: 'card_declined' } }).message).toBe('Your card was declined.');
  });
  it('never shows a non-JSON error body as the message', () => {
    expect(mapHttpError('GET', 502, '<html><body>Bad gateway</body></html>').message).toBe('Some data could not be parsed');
  });
  it('maps mutation failures', () => {
    expect(mapHttpError('POST', 400, {})).toBeInstanceOf(DataMutationError);
    expect(mapHttpError('DELETE', 500, {})).toBeInstanceOf(DataMutationError);
    const notFound = mapHttpError('PATCH', 404, { message: 'nope' });
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).not.toBeInstanceOf(DataMutationError);
    expect((notFound as ApiError).status).toBe(404);
  });
  it('keeps the validation details of a 422', () => {
    const error = mapHttpError('POST', 422, { message: 'Validation error', details: { name: ['The project name must have at least 3 characters'] } });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual({ name: ['The project name must have at least 3 characters'] });
  });
  it('reads a 400 with field messages (the integrations\' answer, spec 001 §8) as a validation error; a shape 400 stays a data error', () => {
    const details = { name: ['The cluster name is required.'] };
    const fields = mapHttpError('POST', 400, { message: 'Validation error', description: 'Some fields are not valid.', details });
    expect(fields).toBeInstanceOf(ValidationError);
    expect((fields as ValidationError).status).toBe(400);
    expect((fields as ValidationError).details).toEqual(details);
    expect(mapHttpError('POST', 400, { message: 'Invalid request', description: 'x', details: { shards: ['Expected a number'] } })).toBeInstanceOf(DataMutationError);
  });
  it('carries the description of the body', () => {
    const error = mapHttpError('GET', 404, { message: 'We had issues loading your billing information', description: 'Please reload.' }) as ApiError;
    expect(error.message).toBe('We had issues loading your billing information');
    expect(error.description).toBe('Please reload.');
  });
  it('uses the spec defaults for the error kinds', () => {
    expect(new ApiError('x').status).toBe(400);
    expect(new AuthenticationError('x').status).toBe(401);
    expect(new ValidationError('x').status).toBe(422);
    expect(new ValidationError('x').details).toEqual({});
  });
});

describe('wire decoding', () => {
  const Wire = Schema.Struct({ project_id: Schema.Number, created_at: Schema.String, product: Schema.Struct({ is_available: Schema.Boolean }) });
  it('decodes the wire form with the schema, then camelCases it', () => {
    expect(decodeWire(Wire, { project_id: 1, created_at: 'now', product: { is_available: true } })).toEqual({ projectId: 1, createdAt: 'now', product: { isAvailable: true } });
  });
  it("reports 'Some data could not be parsed' when decoding fails", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => decodeWire(Wire, { project_id: 'one' })).toThrow(PARSE_ERROR_MESSAGE);
  });
  it('converts request bodies to snake_case deeply and back', () => {
    expect(snakeizeKeys({ billingAccountId: 1, projectIds: [1], nested: { readOnly: true } })).toEqual({ billing_account_id: 1, project_ids: [1], nested: { read_only: true } });
    expect(camelizeKeys([{ given_name: 'A' }])).toEqual([{ givenName: 'A' }]);
  });
});
