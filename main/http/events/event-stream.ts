import type { ServerResponse } from 'node:http';

/** Whose stream it is: what the hub needs to route events and to close it when its key goes. */
export interface StreamClient {
  accountId: number;
  accessKey: string;
  /** The owner's streams also get `sync` events (sync folders are the owner's alone). */
  isOwner: boolean;
  /** A session key's expiry (Unix seconds): the stream closes then. Null for an ordinary key. */
  expiresAt: number | null;
}

export interface EventStream extends StreamClient {
  /**
   * Writes one message. While the client is slow (the socket's buffer is full), messages wait: one per
   * `latestKey` (a newer one replaces it: only the latest usage, or folder status, matters) and the
   * others in order, at most `maxQueued` of them; a client further behind is cut off (it reconnects and
   * refetches), so nothing grows without bound for a reader that stopped reading.
   */
  send(text: string, latestKey?: string): void;
  /** Ends the stream (the client's reader sees it finish). */
  close(): void;
  readonly closed: boolean;
}

export interface EventStreamOptions {
  maxQueued: number;
  onClose(): void;
}

export function openEventStream(response: ServerResponse, client: StreamClient, options: EventStreamOptions): EventStream {
  let closed = false;
  // Set by close(): the response's 'close' follows its end() only later, and a write in between throws.
  let ending = false;
  let blocked = false;
  const queue: string[] = [];
  const latest = new Map<string, string>();

  const write = (text: string): void => {
    if (!response.write(text)) blocked = true;
  };
  const drain = (): void => {
    blocked = false;
    while (!blocked && queue.length > 0) write(queue.shift() as string);
    for (const [key, text] of latest) {
      if (blocked) return;
      latest.delete(key);
      write(text);
    }
  };
  response.on('drain', drain);
  response.on('close', () => {
    if (closed) return;
    closed = true;
    queue.length = 0;
    latest.clear();
    options.onClose();
  });

  return {
    ...client,
    get closed() {
      return closed;
    },
    send(text, latestKey) {
      if (closed || ending) return;
      if (!blocked) {
        write(text);
        return;
      }
      if (latestKey !== undefined) {
        latest.delete(latestKey);
        latest.set(latestKey, text);
        return;
      }
      queue.push(text);
      if (queue.length > options.maxQueued) response.destroy();
    },
    close() {
      if (closed || ending) return;
      ending = true;
      // A client that is not reading would hold a graceful end open forever.
      if (blocked) response.destroy();
      else response.end();
    },
  };
}
