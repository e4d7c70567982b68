// @vitest-environment jsdom
// Data Ingestion's rotation of the Hepic key: a refused or failed rotation says so, with the server's message.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RotateKeyFailure } from '../../src/views/stack/hepic/hepic-ingest-key';

afterEach(cleanup);

describe('Hepic key rotation failure', () => {
  it("shows the server's message and description as an alert", () => {
    render(<RotateKeyFailure result={{ ok: false, status: 403, intent: 'ROTATE_HEPIC_KEY', error: 'Forbidden', description: 'Only hepic admins can rotate the token.' }} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Forbidden');
    expect(alert.textContent).toContain('Only hepic admins can rotate the token.');
  });

  it('without a message from the server, says the token was not rotated and still works', () => {
    render(<RotateKeyFailure result={{ ok: false, status: 500, intent: 'ROTATE_HEPIC_KEY' }} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The token could not be rotated.');
    expect(alert.textContent).toContain('The current token is unchanged and still works.');
  });
});
