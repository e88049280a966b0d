import pg from 'pg';
import { parseChange, type Change, type ChangePublisher } from '../../base/changes.js';

/** The one channel the instances announce changes on; the payload is JSON `{kind, key}`. */
export const CHANGES_CHANNEL = 'pinfold_changes';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

export interface ChangeChannelInit {
  url: string;
  /** Where published changes are sent from (autocommit, any session). */
  pool: pg.Pool;
  /** A change announced by any instance (this one included: evicting twice is harmless). */
  onChange(change: Change): void;
  /**
   * The listening session was lost and is back: whatever was announced in between was missed, so every
   * cache that relies on the channel must be dropped whole.
   */
  onResync(): void;
  onError(error: unknown): void;
}

export interface ChangeChannel extends ChangePublisher {
  close(): Promise<void>;
}

/**
 * LISTEN/NOTIFY between instances on one database. One dedicated session listens (a pooled one would be
 * handed to queries and miss notifications); when it dies, it is replaced with a growing pause between
 * tries, and each replacement calls `onResync`. Resolves once the first session listens, so an instance
 * never serves from caches it cannot keep coherent.
 */
export async function openChangeChannel(init: ChangeChannelInit): Promise<ChangeChannel> {
  let listener: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let retryMs = FIRST_RETRY_MS;

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: init.url });
    const lost = (): void => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
      scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== CHANGES_CHANNEL) return;
      const change = parseChange(message.payload);
      if (change !== null) init.onChange(change);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      listen().then(
        () => {
          retryMs = FIRST_RETRY_MS;
          if (!closed) init.onResync();
        },
        (error: unknown) => {
          init.onError(error);
          retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  await listen();
  return {
    published(change) {
      init.pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, JSON.stringify(change)]).catch((error: unknown) => init.onError(error));
    },
    async close() {
      closed = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },
  };
}
