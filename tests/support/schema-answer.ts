import { expect } from 'vitest';
import { decodeInput } from '../../contract/common';
import type { ApiResponse } from './api-client';

/**
 * The API's answer to a body judged by the contract schema the server decodes it with: never 5xx; a rejected body
 * is 400 (shape) or `ruleStatus` (rules: 422 in the account area, 400 on the integrations' calls, spec 001 §8) with exactly the schema's field messages; an accepted one is never a schema failure.
 */
export function expectSchemaAnswer(response: ApiResponse, schema: Parameters<typeof decodeInput>[0], sent: string, ruleStatus: 400 | 422 = 422): void {
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
  const expected = decodeInput(schema, JSON.parse(sent));
  if (!expected.ok) {
    expect(response.status).toBe(expected.shape ? 400 : ruleStatus);
    expect(response.body.details).toEqual(expected.errors);
  } else {
    // Accepted by the contract: the server may still refuse (404, 403, 409 ...) but never as a schema failure.
    expect(response.body.message).not.toBe('Invalid request');
  }
}
