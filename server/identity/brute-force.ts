import type { IncomingMessage } from 'node:http';
import type { Queryable } from '../db/database';
import {
  clearFailures,
  countAttempt,
  currentWait,
  sweepOldFailures,
  takeBackAttempt,
  type FailurePolicy,
} from '../db/repositories/sign-in-failures-repository';

// Brute-force protection of the login form, after Keycloak's brute-force detection: failures are counted per
// account (the email as typed, so an unknown account is treated exactly like an existing one) and per client
// address; after a few failures each attempt must wait a growing time, after many the subject is locked for a
// while; a successful sign-in clears the account's count. All state is in the database (sign_in_failures), so a
// restart or a second instance does not reset it. Settings and defaults: docs/security.md.

export interface SignInProtectionSettings {
  account: FailurePolicy;
  address: FailurePolicy;
}

export type SignInGate = { allowed: true; succeeded(): Promise<void>; failed(): Promise<number> } | { allowed: false; waitSeconds: number };

/** The text the login page shows while a wait applies (the same for every account, existing or not). */
export function waitMessage(seconds: number): string {
  const amount = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : seconds === 1 ? '1 second' : `${seconds} seconds`;
  return `Too many failed sign-in attempts. Please wait ${amount} before trying again.`;
}

/**
 * The address a sign-in comes from. Behind a TLS-terminating load balancer (an https PUBLIC_URL, the same trust the
 * identity server gives X-Forwarded-Proto) it is the last X-Forwarded-For entry, the one that balancer appended;
 * earlier entries are the client's to invent.
 */
export function clientAddress(req: IncomingMessage, behindProxy: boolean): string {
  const forwarded = req.headers['x-forwarded-for'];
  if (behindProxy && typeof forwarded === 'string' && forwarded.trim()) {
    const hops = forwarded.split(',').map((hop) => hop.trim()).filter(Boolean);
    if (hops.length > 0) return hops[hops.length - 1];
  }
  return req.socket.remoteAddress ?? 'unknown';
}

export function createSignInProtection(db: Queryable, settings: SignInProtectionSettings) {
  return {
    /**
     * Counts the attempt for the address, then the account, before any password is checked. Refused while either
     * must still wait; otherwise the caller checks the password and reports the outcome.
     */
    async attempt(email: string, address: string): Promise<SignInGate> {
      const account = `account:${email.trim().toLowerCase()}`;
      const origin = `address:${address}`;
      const byAddress = await countAttempt(db, origin, settings.address);
      if (!byAddress.allowed) return byAddress;
      const byAccount = await countAttempt(db, account, settings.account);
      if (!byAccount.allowed) {
        await takeBackAttempt(db, origin, settings.address);
        return byAccount;
      }
      return {
        allowed: true,
        async succeeded() {
          await clearFailures(db, account);
          await takeBackAttempt(db, origin, settings.address);
        },
        /** The wait this failure started for the next attempt (0 when none). */
        async failed() {
          return Math.max(await currentWait(db, account), await currentWait(db, origin));
        },
      };
    },
    sweep: () => sweepOldFailures(db, Math.max(settings.account.resetSeconds, settings.address.resetSeconds)),
  };
}

export type SignInProtection = ReturnType<typeof createSignInProtection>;
