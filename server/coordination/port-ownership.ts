// One platform instance owns each fixed listening port that must have a single owner across the installation (the
// HEP endpoint, UDP and TCP): several instances behind a load balancer share one PostgreSQL, and each would
// otherwise start its own listener (docs/architecture.md "Growing past one machine").
//
// The lease is a PostgreSQL session advisory lock (key pair PORT_LOCK_SPACE, port) held on a connection of its own
// for as long as the owner runs: an owner that stops or is killed (even with SIGKILL) closes that connection and
// the lock is free at once. The others try again every `retryMs` and start the listener when they get it; until
// then they skip it and say so in the log. Without PostgreSQL (the embedded database: one instance) and for port 0
// (a port chosen by the system, tests) there is nothing to share and the caller owns the port at once.

export const PORT_LOCK_SPACE = 7312;
export const DEFAULT_PORT_LEASE_RETRY_MS = 5_000;

export interface PortClaim {
  /** Whether this instance holds the port now. */
  owned(): boolean;
  /** Gives the lease back (the listener's owner closes it first). */
  release(): Promise<void>;
}

interface ClaimOptions {
  /** PostgreSQL's URL (DATABASE_URL); absent: the embedded database, a single instance. */
  databaseUrl?: string;
  /** What the port is for, in the log ("HEP"). */
  name: string;
  port: number;
  /** Starts the listener; called once, when this instance holds the port (at once, or on a later try). */
  start(): Promise<void>;
  log(message: string): void;
  retryMs?: number;
}

/**
 * Takes the port's lease, or keeps trying in the background: the hook the listener start-up calls. Resolves when
 * the first try is done (and, when it got the lease, after `start` has run).
 */
export async function claimPort(options: ClaimOptions): Promise<PortClaim> {
  if (!options.databaseUrl || options.port === 0) {
    await options.start();
    return { owned: () => true, release: async () => undefined };
  }
  const { default: pg } = await import('pg');
  const retryMs = options.retryMs ?? DEFAULT_PORT_LEASE_RETRY_MS;
  let client: InstanceType<typeof pg.Client> | undefined;
  let owned = false;
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  let announced = false;

  async function attempt(): Promise<void> {
    const next = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 });
    next.on('error', () => undefined);
    try {
      await next.connect();
      const [row] = (await next.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [PORT_LOCK_SPACE, options.port])).rows;
      if (!row?.got || released) {
        await next.end().catch(() => undefined);
        if (!announced && !released) {
          announced = true;
          options.log(`[ports] ${options.name} port ${options.port} is owned by another platform instance: this instance does not listen on it, and takes it over if that instance stops (tried every ${retryMs / 1000} s)`);
        }
        return;
      }
    } catch (error) {
      await next.end().catch(() => undefined);
      options.log(`[ports] the ${options.name} port ${options.port} lease could not be checked: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    client = next;
    owned = true;
    // Losing the connection loses the lock: another instance may take the port. Said loudly; this listener keeps
    // running (stopping it would drop packets while no one may yet have taken over).
    next.on('end', () => {
      if (released || client !== next) return;
      owned = false;
      client = undefined;
      options.log(`[ports] the ${options.name} port ${options.port} lease was lost (the PostgreSQL connection ended); another instance may now listen too`);
    });
    options.log(`[ports] this platform instance owns the ${options.name} port ${options.port}${announced ? ' (taken over)' : ''}`);
    try {
      await options.start();
    } catch (error) {
      options.log(`[ports] the ${options.name} listener did not start: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function schedule() {
    if (released || owned) return;
    timer = setTimeout(() => {
      timer = undefined;
      void attempt().finally(schedule);
    }, retryMs);
    timer.unref();
  }

  await attempt();
  schedule();
  return {
    owned: () => owned,
    async release() {
      released = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      owned = false;
      // Ending the session frees the lock.
      await current?.end().catch(() => undefined);
    },
  };
}
