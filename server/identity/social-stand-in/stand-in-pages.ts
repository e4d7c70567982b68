import { escapeHtml } from '../email-verification';

// The stand-in's own pages. They say on every page that this is a local stand-in, not a real provider, and look
// unlike the console's login page so nobody mistakes one for the other.

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Social stand-in (local)</title>
<style>
body { font-family: system-ui, sans-serif; background: #f4f1ea; color: #1d1d1d; display: flex; justify-content: center; padding: 48px 16px; }
main { background: #fff; border: 2px dashed #b07d2b; border-radius: 12px; padding: 28px; max-width: 400px; width: 100%; }
.banner { background: #fff3d6; border-radius: 6px; padding: 8px 10px; font-size: 13px; margin: 0 0 16px; }
label { display: block; font-weight: 600; margin-bottom: 6px; }
input { width: 100%; box-sizing: border-box; padding: 9px; font: inherit; border: 1px solid #999; border-radius: 6px; }
.actions { display: flex; gap: 8px; margin-top: 16px; }
button { padding: 9px 14px; font: inherit; border-radius: 6px; border: 1px solid #555; background: #1d1d1d; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1d1d1d; }
button:focus-visible, input:focus-visible { outline: 3px solid #b07d2b; outline-offset: 2px; }
.error { color: #a01818; font-size: 14px; }
</style>
</head>
<body><main>
<p class="banner" role="note">Local stand-in for an external sign-in provider (development and tests only). It trusts the email you type.</p>
${body}
</main></body>
</html>`;
}

export function standInLoginPage(options: { action: string; cancel: string; email: string; error?: string }): string {
  return layout(
    'Sign in',
    `<h1>Social stand-in: sign in</h1>
<p>Known here: social@example.com (Sam Social). Any other email signs in as a new social user.</p>
<form method="post" action="${escapeHtml(options.action)}" novalidate>
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email)}"
 ${options.error ? 'aria-invalid="true" aria-describedby="email-error"' : ''} autofocus>
${options.error ? `<p class="error" id="email-error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<div class="actions"><button type="submit">Continue</button><button type="submit" class="secondary" formaction="${escapeHtml(options.cancel)}">Cancel</button></div>
</form>`,
  );
}

export function standInMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p>`);
}
