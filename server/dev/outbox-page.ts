import type { ServerResponse } from 'node:http';
import { listOutbox } from '../adapters/mail/mailer';
import type { Queryable } from '../db/database';
import { escapeHtml } from '../identity/email-verification';

/**
 * The local mail outbox for developers and browser tests: newest first, every link clickable. The HTML body of a
 * mail is not rendered as HTML (it could carry script); its links are extracted from the text body instead.
 */
export async function renderOutboxPage(db: Queryable, res: ServerResponse, realmPath: string): Promise<void> {
  const mails = await listOutbox(db, 200);
  const linkify = (text: string) =>
    escapeHtml(text).replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
  const items = mails
    .map(
      (mail) => `<article class="mail" data-mail-id="${mail.id}">
<h2>${escapeHtml(mail.subject)}</h2>
<p class="meta">To <span class="to">${escapeHtml(mail.to_address)}</span> · ${escapeHtml(new Date(mail.created_at).toISOString())}${mail.sent_at ? ' · delivered by SMTP' : ''}</p>
<pre>${linkify(mail.text_body)}</pre>
</article>`,
    )
    .join('\n');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mail outbox</title><link rel="stylesheet" href="${realmPath}/resources/identity.css"></head>
<body><main class="card wide">
<h1>Mail outbox</h1>
<p class="lead">Every mail the platform sent, newest first (${mails.length}).</p>
${items || '<p>No mail yet.</p>'}
</main></body></html>`);
}
