import { nameTextProblem, TEXT_LIMITS, tooLongMessage } from '../../contract/text-rules';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { PlatformConfig } from '../config';
import type { Database } from '../db/database';
import type { Mailer } from '../adapters/mail/mailer';
import { authenticateUser, createUser, findUserByEmail, type UserRow } from '../db/repositories/users-repository';
import { sendVerificationEmail } from './email-verification';
import { readForm, sendHtml, sendText } from './http-responses';
import { loginPage, messagePage, registrationPage, type PageContext, type RegistrationErrors, type RegistrationValues } from './pages';
import { passwordProblems } from './password-rules';
import { clientAddress, waitMessage, type SignInProtection } from './brute-force';
import { describeErrorForLog } from '../safe-error-log';
import { SocialSignInError, socialFailureMessage, type SocialSignIn } from './social-sign-in';

// The provider's interactions: the login page and its form post, the registration page and its form post.

export interface InteractionDependencies {
  db: Database;
  config: PlatformConfig;
  mailer: Mailer;
  provider: Provider;
  pageContext: PageContext;
  signInProtection: SignInProtection;
  /** Sign-in through the external provider (SOCIAL_OIDC_* or the local stand-in); absent = no button. */
  social?: SocialSignIn;
  quiet?: boolean;
}

export function createInteractionHandler(deps: InteractionDependencies) {
  const { db, config, mailer, provider, pageContext, signInProtection, social } = deps;
  const behindProxy = config.publicUrl.startsWith('https:');
  const realmPath = pageContext.realmPath;

  /** `action` is what follows /interaction/{uid}: '', '/login', '/register', '/social' or '/social-callback'. */
  return async function handleInteraction(req: IncomingMessage, res: ServerResponse, action: string, url?: URL): Promise<void> {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return sendHtml(res, 400, messagePage(pageContext, {
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Please start again from the console.',
        link: { href: pageContext.consoleUrl, label: 'Back to the console' },
        tone: 'error',
      }));
    }
    const uid: string = details.uid;
    const base = `${realmPath}/interaction/${uid}`;
    const params = details.params as Record<string, string | undefined>;

    if (details.prompt.name === 'consent') {
      // Never reached while loadExistingGrant creates the grant; kept so a changed policy cannot strand a user.
      const grant = new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
      grant.addOIDCScope('openid profile email');
      grant.addResourceScope(config.apiAudience, 'openid profile email');
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }

    const socialButton = social ? { href: `${base}/social`, label: social.label } : undefined;
    const loginForm = (options: { email?: string; error?: string }) =>
      sendHtml(res, 200, loginPage(pageContext, { action: `${base}/login`, registerUrl: `${base}/register`, social: socialButton, ...options }));

    if (action === '/social' || action === '/social-callback') {
      if (!social || req.method !== 'GET') return sendText(res, 404, 'Not found');
      // The interaction comes from this browser's cookie; the address must name the same one.
      const addressed = url?.pathname.split('/interaction/')[1]?.split('/')[0];
      try {
        if (action === '/social') {
          res.writeHead(303, { Location: await social.start(uid), 'Cache-Control': 'no-store' });
          return void res.end();
        }
        if (addressed !== uid) throw new SocialSignInError('bad_state', 'the callback names another interaction');
        const user = await social.finish(uid, url?.searchParams ?? new URLSearchParams());
        return await provider.interactionFinished(
          req,
          res,
          { login: { accountId: user.id, amr: ['fed'], remember: true } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        if (!deps.quiet) console.warn('[identity] social sign-in refused:', error instanceof SocialSignInError ? error.message : describeErrorForLog(error));
        const reason = error instanceof SocialSignInError ? error.reason : 'provider_error';
        return loginForm({ error: socialFailureMessage(reason, social.label) });
      }
    }
    const registrationForm = (options: { values: RegistrationValues; errors?: RegistrationErrors }) =>
      sendHtml(res, 200, registrationPage(pageContext, { action: `${base}/register`, loginUrl: base, ...options }));

    if (req.method === 'GET') {
      if (action === '/register' || (action === '' && params.screen_hint === 'signup')) {
        return registrationForm({ values: { firstName: '', lastName: '', email: params.login_hint ?? '' } });
      }
      return loginForm({ email: params.login_hint });
    }
    if (req.method !== 'POST') return sendText(res, 405, 'Method not allowed');
    const form = await readForm(req);

    if (action === '/login') {
      const email = (form.get('email') ?? '').trim();
      const password = form.get('password') ?? '';
      // 200 like Keycloak: the page is the answer, and browsers would log a 4xx document as a console error.
      if (!email || !password) return loginForm({ email, error: 'Invalid email or password.' });
      const gate = await signInProtection.attempt(email, clientAddress(req, behindProxy));
      // While a wait applies the password is not even checked, so guessing during it learns nothing.
      if (!gate.allowed) return loginForm({ email, error: waitMessage(gate.waitSeconds) });
      const user = await authenticateUser(db, email, password);
      if (!user) {
        const wait = await gate.failed();
        return loginForm({ email, error: wait > 0 ? waitMessage(wait) : 'Invalid email or password.' });
      }
      await gate.succeeded();
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.id, amr: ['pwd'], remember: true } },
        { mergeWithLastSubmission: false },
      );
    }

    if (action === '/register') {
      const values = {
        firstName: (form.get('firstName') ?? '').trim(),
        lastName: (form.get('lastName') ?? '').trim(),
        email: (form.get('email') ?? '').trim(),
      };
      const password = form.get('password') ?? '';
      const passwordConfirm = form.get('passwordConfirm') ?? '';
      const errors: RegistrationErrors = {};
      // The console's limits and character rules for names (contract/text-rules.ts), on this form too.
      const nameProblem = (value: string, label: string) =>
        value.length > TEXT_LIMITS.personName ? tooLongMessage(TEXT_LIMITS.personName) : nameTextProblem(value, label);
      const firstNameProblem = nameProblem(values.firstName, 'The first name');
      const lastNameProblem = nameProblem(values.lastName, 'The last name');
      if (!values.firstName) errors.firstName = ['Please enter your first name.'];
      else if (firstNameProblem) errors.firstName = [firstNameProblem];
      if (!values.lastName) errors.lastName = ['Please enter your last name.'];
      else if (lastNameProblem) errors.lastName = [lastNameProblem];
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email) || values.email.length > TEXT_LIMITS.email || nameTextProblem(values.email, 'The email')) {
        errors.email = ['Please enter a valid email address.'];
      }
      if (!errors.email && (await findUserByEmail(db, values.email))) errors.email = ['An account with this email address already exists.'];
      const problems = passwordProblems(password);
      if (problems.length) errors.password = problems;
      if (!passwordConfirm || password !== passwordConfirm) errors.passwordConfirm = ['The passwords do not match.'];
      if (Object.keys(errors).length) return registrationForm({ values, errors });

      let user: UserRow;
      try {
        user = await createUser(db, { email: values.email, password, givenName: values.firstName, familyName: values.lastName });
      } catch {
        // The unique index caught a registration that raced this one.
        return registrationForm({ values, errors: { email: ['An account with this email address already exists.'] } });
      }
      await sendVerificationEmail({ db, mailer, config }, user);
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.id, amr: ['pwd'], remember: true } },
        { mergeWithLastSubmission: false },
      );
    }
    return sendText(res, 404, 'Not found');
  };
}
