import { escapeHtml } from './email-verification';

// Server-rendered pages of the identity server. No inline script or style (the CSP forbids them): the stylesheet
// and the few scripts are files under resources/. Errors are announced (role=alert) and fields point at them.

export interface PageContext {
  /** `/realms/observability`, the base of every identity URL. */
  realmPath: string;
  consoleUrl: string;
}

function layout(ctx: PageContext, title: string, body: string, scripts: string[] = []): string {
  const scriptTags = scripts.map((s) => `<script src="${ctx.realmPath}/resources/${s}" defer></script>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Observability Console</title>
<link rel="stylesheet" href="${ctx.realmPath}/resources/identity.css">
${scriptTags}
</head>
<body>
<main class="card">
<div class="brand"><span class="brand-mark" aria-hidden="true"></span><span>Observability Console</span></div>
${body}
</main>
</body>
</html>`;
}

function field(options: {
  id: string;
  label: string;
  type: string;
  value?: string;
  autocomplete: string;
  errors?: string[];
  hint?: string;
  autofocus?: boolean;
}): string {
  const errors = options.errors ?? [];
  const describedBy = [options.hint ? `${options.id}-hint` : '', errors.length ? `${options.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return `<div class="field">
<label for="${options.id}">${escapeHtml(options.label)}</label>
<input id="${options.id}" name="${options.id}" type="${options.type}" autocomplete="${options.autocomplete}" required
 ${options.value !== undefined ? `value="${escapeHtml(options.value)}"` : ''}
 ${describedBy ? `aria-describedby="${describedBy}"` : ''} ${errors.length ? 'aria-invalid="true"' : ''} ${options.autofocus ? 'autofocus' : ''}>
${options.hint ? `<p class="hint" id="${options.id}-hint">${escapeHtml(options.hint)}</p>` : ''}
${errors.length ? `<ul class="field-error" id="${options.id}-error">${errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>` : ''}
</div>`;
}

function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert" id="form-error">${escapeHtml(message)}</div>` : '';
}

export function loginPage(
  ctx: PageContext,
  options: { action: string; registerUrl: string; email?: string; error?: string; notice?: string; social?: { href: string; label: string } },
): string {
  return layout(
    ctx,
    'Sign in',
    `<h1>Sign in</h1>
<p class="lead">Use your email address and password.</p>
${alert(options.error)}
${options.notice ? `<div class="notice" role="status">${escapeHtml(options.notice)}</div>` : ''}
<form method="post" action="${escapeHtml(options.action)}" novalidate ${options.error ? 'aria-describedby="form-error"' : ''}>
${field({ id: 'email', label: 'Email', type: 'email', value: options.email ?? '', autocomplete: 'username', autofocus: !options.email || !!options.error })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: !!options.email && !options.error })}
<button type="submit">Sign in</button>
</form>
${options.social ? socialSignIn(options.social) : ''}
<p class="switch">New here? <a href="${escapeHtml(options.registerUrl)}">Create an account</a></p>`,
  );
}

/**
 * The external provider's button: a link (a GET starts the flow), so the page's form-action 'self' does not block
 * the redirect to the provider. After the password form, so that form stays the page's first.
 */
function socialSignIn(social: { href: string; label: string }): string {
  return `<div class="divider" role="separator"><span>or</span></div>
<a class="button secondary social" href="${escapeHtml(social.href)}">Continue with ${escapeHtml(social.label)}</a>`;
}

export interface RegistrationValues {
  firstName: string;
  lastName: string;
  email: string;
}

export type RegistrationErrors = Partial<Record<'firstName' | 'lastName' | 'email' | 'password' | 'passwordConfirm', string[]>>;

export function registrationPage(
  ctx: PageContext,
  options: { action: string; loginUrl: string; values?: RegistrationValues; errors?: RegistrationErrors; error?: string },
): string {
  const values = options.values ?? { firstName: '', lastName: '', email: '' };
  const errors = options.errors ?? {};
  const firstInvalid = (['firstName', 'lastName', 'email', 'password', 'passwordConfirm'] as const).find((k) => errors[k]?.length);
  return layout(
    ctx,
    'Create an account',
    `<h1>Create an account</h1>
<p class="lead">It takes a minute. We will send you a link to verify your email address.</p>
${alert(options.error ?? (firstInvalid ? 'Please correct the fields marked below.' : undefined))}
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<div class="row">
${field({ id: 'firstName', label: 'First name', type: 'text', value: values.firstName, autocomplete: 'given-name', errors: errors.firstName, autofocus: !firstInvalid || firstInvalid === 'firstName' })}
${field({ id: 'lastName', label: 'Last name', type: 'text', value: values.lastName, autocomplete: 'family-name', errors: errors.lastName, autofocus: firstInvalid === 'lastName' })}
</div>
${field({ id: 'email', label: 'Email', type: 'email', value: values.email, autocomplete: 'email', errors: errors.email, autofocus: firstInvalid === 'email' })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', errors: errors.password, autofocus: firstInvalid === 'password', hint: 'At least 8 characters with a lower case letter, an upper case letter, a number and one of !@#$%^&*.' })}
${field({ id: 'passwordConfirm', label: 'Confirm password', type: 'password', autocomplete: 'new-password', errors: errors.passwordConfirm, autofocus: firstInvalid === 'passwordConfirm' })}
<button type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="${escapeHtml(options.loginUrl)}">Sign in</a></p>`,
  );
}

export function messagePage(
  ctx: PageContext,
  options: { title: string; message: string; link?: { href: string; label: string }; tone?: 'success' | 'error' },
): string {
  return layout(
    ctx,
    options.title,
    `<h1>${escapeHtml(options.title)}</h1>
<p class="lead ${options.tone === 'success' ? 'success' : ''}" ${options.tone === 'error' ? 'role="alert"' : 'role="status"'}>${escapeHtml(options.message)}</p>
${options.link ? `<a class="button" href="${escapeHtml(options.link.href)}">${escapeHtml(options.link.label)}</a>` : ''}`,
  );
}

/**
 * Without an id_token_hint nothing shows that the console asked (a link on another site could be a plain GET): the
 * user confirms, as the OpenID Connect RP-Initiated Logout specification allows. No script submits this form.
 */
export function logoutConfirmationPage(ctx: PageContext, form: string): string {
  return layout(
    ctx,
    'Sign out',
    `<h1>Sign out?</h1>
<p class="lead">Do you want to sign out of the Observability Console?</p>
${form}
<button type="submit" form="logout-form">Sign out</button>
<p class="switch"><a href="${escapeHtml(ctx.consoleUrl)}">Stay signed in</a></p>`,
  );
}

/** Keycloak signs out without asking: the form is submitted by resources/logout.js, or by the button without JS. */
export function logoutPage(ctx: PageContext, form: string): string {
  return layout(
    ctx,
    'Signing out',
    `<h1>Signing out…</h1>
<p class="lead" role="status">You are being signed out.</p>
${form}
<noscript><p class="hint">JavaScript is off: press the button to finish.</p></noscript>
<button type="submit" form="logout-form">Sign out</button>`,
    ['logout.js'],
  );
}

export function thirdPartyCookiePage(ctx: PageContext, step: 1 | 2): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3p cookie check</title>
<script src="${ctx.realmPath}/resources/3p-cookies-step${step}.js"></script></head><body></body></html>`;
}
