import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';

// Several platform instances on one PostgreSQL keep caches of what is in the database (qryn's credentials, label
// lookups, remembered series). A change made through one instance is told to the others with PostgreSQL's
// LISTEN/NOTIFY on one channel, so each drops what the change made stale (docs/architecture.md "Growing past one
// machine"): the publishing instance runs its own handlers at once, the others when the notification arrives —
// PostgreSQL sends it to every listening connection when the publishing statement commits, before the publisher
// answers its caller. A listening connection that drops may miss notifications: when it is back, every handler is
// called with `undefined` ("anything may have changed"), so caches are dropped whole instead of kept stale.
//
// With the embedded database there is one instance: handlers run locally and nothing is sent.

export const EVENTS_CHANNEL = 'platform_events';

export type EventMessage = Record<string, unknown>;
/** `undefined`: notifications may have been missed (the listening connection was lost); drop everything. */
export type EventHandler = (message: EventMessage | undefined) => void;

export interface InstanceEvents {
  /** This platform process's id in the notifications (its own are not handled twice). */
  readonly origin: string;
  /**
   * Runs this instance's handlers of the topic now and tells every other instance. With `tx` the notification is
   * sent when that transaction commits (and not at all when it rolls back). Without `tx` it never rejects: a failed
   * send is logged (the caches' own ages bound what it leaves stale); inside a transaction the failure is the
   * transaction's.
   */
  publish(topic: string, message?: EventMessage, tx?: Queryable): Promise<void>;
  subscribe(topic: string, handler: EventHandler): () => void;
  close(): Promise<void>;
}

interface Options {
  /** PostgreSQL's URL (DATABASE_URL); absent: the embedded database, a single instance. */
  databaseUrl?: string;
  db: Queryable;
  log: (message: string) => void;
  /** First delay before reconnecting the listening connection (doubles up to 30 s). */
  reconnectDelayMs?: number;
}

/** Local handlers only: the embedded database (one instance), or a platform part started without the platform. */
export function localInstanceEvents(): InstanceEvents {
  const handlers = new Map<string, Set<EventHandler>>();
  return {
    origin: randomUUID(),
    async publish(topic, message = {}) {
      for (const handler of handlers.get(topic) ?? []) handler(message);
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set();
      handlers.set(topic, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    close: async () => undefined,
  };
}

export async function startInstanceEvents(options: Options): Promise<InstanceEvents> {
  const local = localInstanceEvents();
  if (!options.databaseUrl) return local;
  const { default: pg } = await import('pg');
  const origin = local.origin;
  const topics = new Map<string, Set<EventHandler>>();
  let client: InstanceType<typeof pg.Client> | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let delay = options.reconnectDelayMs ?? 500;

  const deliver = (topic: string, message: EventMessage | undefined) => {
    for (const handler of topics.get(topic) ?? []) {
      try {
        handler(message);
      } catch (error) {
        options.log(`[events] a handler of ${topic} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  const everything = () => {
    for (const topic of topics.keys()) deliver(topic, undefined);
  };

  async function connect(first: boolean): Promise<void> {
    const next = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 });
    next.on('notification', (notification) => {
      if (notification.channel !== EVENTS_CHANNEL || !notification.payload) return;
      try {
        const parsed = JSON.parse(notification.payload) as { origin: string; topic: string; message: EventMessage };
        if (parsed.origin !== origin) deliver(parsed.topic, parsed.message);
      } catch {
        // Not one of ours.
      }
    });
    const lost = (why: string) => {
      if (client !== next) return;
      client = undefined;
      next.removeAllListeners('error');
      next.on('error', () => undefined);
      void next.end().catch(() => undefined);
      if (closed) return;
      options.log(`[events] the listening connection to PostgreSQL was lost (${why}); reconnecting`);
      schedule();
    };
    next.on('error', (error) => lost(error.message));
    next.on('end', () => lost('closed'));
    await next.connect();
    await next.query(`LISTEN ${EVENTS_CHANNEL}`);
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = options.reconnectDelayMs ?? 500;
    // Whatever was published while nobody listened is unknown: every cache starts afresh.
    if (!first) everything();
  }

  function schedule() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect(false).catch((error: unknown) => {
        options.log(`[events] reconnecting to PostgreSQL failed: ${error instanceof Error ? error.message : String(error)}`);
        delay = Math.min(delay * 2, 30_000);
        schedule();
      });
    }, delay);
    retryTimer.unref();
  }

  await connect(true);

  return {
    origin,
    async publish(topic, message = {}, tx) {
      deliver(topic, message);
      const payload = JSON.stringify({ origin, topic, message });
      try {
        await (tx ?? options.db).query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);
      } catch (error) {
        options.log(`[events] ${topic} could not be sent to the other instances: ${error instanceof Error ? error.message : String(error)}`);
        if (tx) throw error;
      }
    },
    subscribe(topic, handler) {
      const set = topics.get(topic) ?? new Set();
      topics.set(topic, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
