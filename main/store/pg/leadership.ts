import pg from 'pg';

/** Whether this instance leads (holds a session-level advisory lock), and the attempt to become it. */
export interface Leadership {
  leads(): boolean;
  /** Leads already, or tries once to (`pg_try_advisory_lock`, never waits); resolves to whether it leads. */
  attempt(): Promise<boolean>;
  /** Gives up the lead (the session ends, and the lock with it). */
  close(): Promise<void>;
}

export interface LeadershipInit {
  url: string;
  key: string;
  /** Told when the lead is gained or lost (lost: the session died; another instance may take over). */
  onChange?(leads: boolean): void;
}

/**
 * Exactly one leader among the instances on one database: the one whose dedicated session holds the
 * advisory lock `key`. The session is kept for the life of the instance; when the instance dies, the
 * session ends and the lock is free for the next attempt of another one.
 */
export function advisoryLeadership(init: LeadershipInit): Leadership {
  let client: pg.Client | null = null;
  let leading = false;
  let closed = false;
  let attempting: Promise<boolean> | null = null;

  const drop = (dead: pg.Client): void => {
    if (client !== dead) return;
    client = null;
    if (leading) {
      leading = false;
      init.onChange?.(false);
    }
  };

  async function tryOnce(): Promise<boolean> {
    if (client === null) {
      const fresh = new pg.Client({ connectionString: init.url });
      fresh.on('error', () => drop(fresh));
      fresh.on('end', () => drop(fresh));
      client = fresh;
      try {
        await fresh.connect();
      } catch (error) {
        drop(fresh);
        throw error;
      }
    }
    const session = client;
    const answer = await session.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [init.key]);
    if (closed) {
      await session.end().catch(() => undefined);
      return false;
    }
    if (answer.rows[0]?.got === true && client === session) {
      leading = true;
      init.onChange?.(true);
    }
    return leading;
  }

  return {
    leads: () => leading,
    attempt() {
      if (closed) return Promise.resolve(false);
      if (leading) return Promise.resolve(true);
      attempting ??= tryOnce().finally(() => {
        attempting = null;
      });
      return attempting;
    },
    async close() {
      closed = true;
      await attempting?.catch(() => undefined);
      const session = client;
      client = null;
      leading = false;
      await session?.end().catch(() => undefined);
    },
  };
}
