import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { escapeHtml } from '../identity/email-verification';

// /dev/clock (developer pages only): shows business time and moves it forward, then runs the jobs that depend on it
// (invoicing), so a developer or a browser test sees a trial end and an invoice appear without waiting a month.
export async function handleClockPage(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { clock: Clock; realmPath: string; afterAdvance: () => Promise<void>; endTrial: (organizationName: string) => Promise<boolean> },
): Promise<void> {
  let message = '';
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const days = Number(form.get('days'));
    const organization = form.get('end_trial_of');
    if (organization !== null) {
      // One organization's trial ends now (the others keep their time): what a browser test on a shared platform uses.
      const ended = await deps.endTrial(organization);
      if (ended) await deps.afterAdvance();
      message = ended ? `The trial of ${organization} has ended; invoicing has run.` : `Give the name of an organization (${organization} is unknown).`;
    } else if (!Number.isFinite(days) || days <= 0 || days > 3660) {
      message = 'Give a number of days between 1 and 3660.';
    } else {
      deps.clock.advance(days * 24 * 60 * 60 * 1000);
      await deps.afterAdvance();
      message = `Moved forward by ${days} day(s); invoicing has run.`;
    }
  }
  res.writeHead(message.startsWith('Give') ? 400 : 200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Business clock</title><link rel="stylesheet" href="${deps.realmPath}/resources/identity.css"></head>
<body><main class="card"><h1>Business clock</h1>
<p>Business time: <strong data-now>${escapeHtml(deps.clock.now().toISOString())}</strong> (${Math.round(deps.clock.offsetMs() / 86_400_000)} day(s) ahead of the wall clock).</p>
${message ? `<p role="status">${escapeHtml(message)}</p>` : ''}
<form method="post"><label for="days">Move forward by days</label><input id="days" name="days" inputmode="numeric" value="15"><button type="submit">Move forward</button></form>
<form method="post"><label for="end_trial_of">End the trial of the organization named</label><input id="end_trial_of" name="end_trial_of"><button type="submit">End trial now</button></form>
</main></body></html>`);
}
