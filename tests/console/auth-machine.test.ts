import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { authMachine } from '../../src/machines/auth/auth.machine';
import type { AuthSession } from '../../src/services/auth';
import type { TokenClaims } from '../../src/services/token';

function session(organizationId: number | null, options: { hasRefreshToken?: boolean } = {}): AuthSession {
  const claims: TokenClaims = { sub: 'user-1', exp: 2_000_000_000, email: 'demo@example.com', given_name: 'Demo', family_name: 'User', connection: 'Username-Password-Authentication' };
  if (organizationId !== null) claims.organization_id = organizationId;
  return { token: `token-${organizationId ?? 'personal'}`, claims, idClaims: { email_verified: true }, hasRefreshToken: options.hasRefreshToken ?? true };
}

function setup(options: {
  initial: AuthSession | null | Error;
  selectedOrganizationId?: number | null;
  exchange?: (organizationId: number | null) => Promise<AuthSession>;
  hasClientId?: boolean;
}) {
  const calls = { exchange: [] as (number | null)[], login: [] as string[], endSession: 0, logoutReturnPaths: [] as (string | null)[], persisted: [] as (number | null)[], order: [] as string[] };
  const machine = authMachine.provide({
    actors: {
      initialiseSession: fromPromise(async () => {
        if (options.initial instanceof Error) throw options.initial;
        return options.initial;
      }),
      exchangeRefreshToken: fromPromise(async ({ input }: { input: { organizationId: number | null } }) => {
        calls.exchange.push(input.organizationId);
        return (options.exchange ?? (async (id) => session(id)))(input.organizationId);
      }),
      redirectToLogin: fromPromise(async ({ input }: { input: { returnPath: string } }) => {
        calls.login.push(input.returnPath);
      }),
      endSession: fromPromise(async ({ input }: { input: { returnPath: string | null } }) => {
        calls.logoutReturnPaths.push(input.returnPath);
        calls.order.push('endSession');
        calls.endSession += 1;
      }),
    },
    actions: {
      persistAccountMode: ({ context }) => {
        calls.persisted.push(context.selectedOrganizationId);
      },
      clearErrorReportingUser: () => calls.order.push('clearErrorReportingUser'),
      resetAnalytics: () => calls.order.push('resetAnalytics'),
      clearSelectedProject: () => calls.order.push('clearSelectedProject'),
      clearAccountMode: () => calls.order.push('clearAccountMode'),
      accountSwitched: () => calls.order.push('accountSwitched'),
    },
  });
  const actor = createActor(machine, { input: { selectedOrganizationId: options.selectedOrganizationId ?? null, hasClientId: options.hasClientId ?? true } });
  actor.start();
  return { actor, calls };
}

afterEach(() => vi.restoreAllMocks());

describe('auth machine', () => {
  it('starts loading and unauthenticated', () => {
    const { actor } = setup({ initial: session(null) });
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('initialising');
    expect(snapshot.context.user).toBeNull();
  });

  it('becomes authenticated with a camelCase user and the decoded token', async () => {
    const { actor } = setup({ initial: session(null) });
    const snapshot = await waitFor(actor, (s) => s.matches('authenticated'));
    expect(snapshot.context.user).toMatchObject({ id: 'user-1', givenName: 'Demo', familyName: 'User', emailVerified: true, organizationId: null });
    expect(snapshot.context.decodedToken?.sub).toBe('user-1');
  });

  it('without a session waits for auth.login and passes the return path on', async () => {
    const { actor, calls } = setup({ initial: null });
    await waitFor(actor, (s) => s.matches('unauthenticated'));
    actor.send({ type: 'auth.login', returnPath: '/login?organization=3' });
    await waitFor(actor, () => calls.login.length === 1);
    expect(actor.getSnapshot().value).toBe('redirectingToLogin');
    expect(calls.login).toEqual(['/login?organization=3']);
  });

  it('keeps the initialisation error and retries on auth.retry', async () => {
    const { actor } = setup({ initial: new Error('Timeout when waiting for 3rd party check iframe message.') });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.keyCloakError).toMatch(/3rd party/);
    actor.send({ type: 'auth.retry' });
    expect(actor.getSnapshot().context.keyCloakError).toBeNull();
  });

  it('exchanges the refresh token on load when the stored organization differs from the token', async () => {
    const { actor, calls } = setup({ initial: session(null), selectedOrganizationId: 5 });
    const snapshot = await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.exchange).toEqual([5]);
    expect(snapshot.context.decodedToken?.organization_id).toBe(5);
    expect(calls.persisted).toEqual([5]);
    // Restoring on load keeps the page and the project: no navigation, no project reset.
    expect(calls.order).not.toContain('accountSwitched');
    expect(calls.order).not.toContain('clearSelectedProject');
  });

  it('does not exchange without a refresh token, and stays with the token account', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { actor, calls } = setup({ initial: session(null, { hasRefreshToken: false }), selectedOrganizationId: 5 });
    const snapshot = await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.exchange).toEqual([]);
    expect(snapshot.context.selectedOrganizationId).toBeNull();
    expect(warn).toHaveBeenCalled();
  });

  it('does not exchange without a client id', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { actor, calls } = setup({ initial: session(null), selectedOrganizationId: 5, hasClientId: false });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.exchange).toEqual([]);
  });

  it('switches to an organization and back to the personal account', async () => {
    const { actor, calls } = setup({ initial: session(null) });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'organization.switch', organizationId: 9 });
    expect(actor.getSnapshot().value).toBe('switchingAccount');
    let snapshot = await waitFor(actor, (s) => s.matches('authenticated'));
    expect(snapshot.context.decodedToken?.organization_id).toBe(9);
    actor.send({ type: 'organization.switch', organizationId: null });
    snapshot = await waitFor(actor, (s) => s.matches('authenticated') && s.context.decodedToken?.organization_id === undefined);
    expect(calls.exchange).toEqual([9, null]);
    expect(calls.order.filter((step) => step === 'accountSwitched')).toHaveLength(2);
    expect(calls.order.filter((step) => step === 'clearSelectedProject')).toHaveLength(2);
  });

  it('a failed organization switch logs a warning and stays with the current account', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { actor, calls } = setup({ initial: session(null), exchange: async () => Promise.reject(new Error('not a member')) });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'organization.switch', organizationId: 42 });
    const snapshot = await waitFor(actor, (s) => s.matches('authenticated'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(snapshot.context.decodedToken?.organization_id).toBeUndefined();
    expect(snapshot.context.selectedOrganizationId).toBeNull();
    expect(calls.persisted.at(-1)).toBeNull();
  });

  it('switching to the current account exchanges nothing', async () => {
    const { actor, calls } = setup({ initial: session(4), selectedOrganizationId: 4 });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'organization.switch', organizationId: 4 });
    expect(actor.getSnapshot().value).toBe('authenticated');
    expect(calls.exchange).toEqual([]);
    expect(calls.order).toContain('accountSwitched');
  });

  it('takes refreshed tokens without leaving authenticated', async () => {
    const { actor } = setup({ initial: session(null) });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'auth.token.refreshed', session: { ...session(null), token: 'refreshed' } });
    expect(actor.getSnapshot().context.token).toBe('refreshed');
  });

  it('logout clears error reporting, analytics and the selected project before leaving the identity server', async () => {
    const { actor, calls } = setup({ initial: session(null) });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'auth.logout' });
    const snapshot = await waitFor(actor, (s) => s.matches('unauthenticated'));
    expect(calls.order).toEqual(['clearErrorReportingUser', 'resetAnalytics', 'clearSelectedProject', 'clearAccountMode', 'endSession']);
    expect(snapshot.context.user).toBeNull();
    expect(snapshot.context.token).toBeNull();
  });

  it('a logout caused by a refused read hands its return path to the identity-server logout; a plain one none', async () => {
    const first = setup({ initial: session(null) });
    await waitFor(first.actor, (s) => s.matches('authenticated'));
    first.actor.send({ type: 'auth.logout', returnPath: '/billing?tab=invoices' });
    await waitFor(first.actor, (s) => s.matches('unauthenticated'));
    expect(first.calls.logoutReturnPaths).toEqual(['/billing?tab=invoices']);
    const second = setup({ initial: session(null) });
    await waitFor(second.actor, (s) => s.matches('authenticated'));
    second.actor.send({ type: 'auth.logout' });
    await waitFor(second.actor, (s) => s.matches('unauthenticated'));
    expect(second.calls.logoutReturnPaths).toEqual([null]);
  });

  it('a lost session returns to unauthenticated', async () => {
    const { actor } = setup({ initial: session(null) });
    await waitFor(actor, (s) => s.matches('authenticated'));
    actor.send({ type: 'auth.session.expired' });
    expect(actor.getSnapshot().value).toBe('unauthenticated');
  });

  it('names every invoke after its actor', () => {
    const invokes = Object.values(authMachine.states).flatMap((state) => state.invoke);
    expect(invokes.length).toBeGreaterThan(0);
    for (const invoke of invokes) {
      expect(typeof invoke.src).toBe('string');
      expect(invoke.id).toBe(invoke.src);
    }
  });
});
