import type { Queryable } from '../../db/database';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/**
 * Every mail is written to the outbox table first (a developer reads it at /dev/outbox). With SMTP_URL set it is
 * also delivered by SMTP; a delivery failure is logged and leaves sent_at empty, it never fails the request.
 */
export function createMailer(db: Queryable, options: { smtpUrl?: string; from: string }): Mailer {
  let transport: Promise<{ sendMail(m: object): Promise<unknown> }> | undefined;
  if (options.smtpUrl) {
    const url = options.smtpUrl;
    transport = import('nodemailer').then((nm) => nm.default.createTransport(url));
  }
  return {
    async send(message) {
      const rows = await db.query<{ id: number }>(
        'INSERT INTO mail_outbox (to_address, subject, text_body, html_body) VALUES ($1, $2, $3, $4) RETURNING id',
        [message.to, message.subject, message.text, message.html ?? null],
      );
      if (!transport) return;
      try {
        await (await transport).sendMail({ from: options.from, ...message });
        await db.query('UPDATE mail_outbox SET sent_at = now() WHERE id = $1', [rows[0].id]);
      } catch (error) {
        console.warn(`[mail] delivery to ${message.to} failed:`, error instanceof Error ? error.message : error);
      }
    },
  };
}

export async function listOutbox(db: Queryable, limit = 100): Promise<OutboxMail[]> {
  return db.query<OutboxMail>('SELECT * FROM mail_outbox ORDER BY id DESC LIMIT $1', [limit]);
}
