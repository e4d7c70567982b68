// @vitest-environment jsdom
// Issue 17 form defect: a server field error ('This person is already a member of the organization.') is cleared
// as soon as the field changes.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/services/errors';
import { installDomStubs } from './dom-stubs';

const ALREADY = 'This person is already a member of the organization.';
vi.mock('../../../src/services/invitations', () => ({
  inviteMember: vi.fn(async () => {
    throw new ValidationError('Validation error', { details: { email: [ALREADY] } });
  }),
}));

installDomStubs();

describe('Invite new member', () => {
  afterEach(() => vi.clearAllMocks());

  it("clears the server's message under Email when the address changes", async () => {
    const { InviteMemberCard } = await import('../../../src/views/organization/invite-member-card');
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <InviteMemberCard projects={[]} onInvited={() => undefined} />
      </QueryClientProvider>,
    );
    const email = screen.getByRole('textbox', { name: /Email/ });
    await user.type(email, 'dev@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(ALREADY)).toBeTruthy();
    await user.type(email, 'x');
    expect(screen.queryByText(ALREADY)).toBeNull();
    expect((email as HTMLInputElement).value).toBe('dev@example.comx');
  });
});
