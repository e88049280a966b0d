import type { ServiceEventName, ServiceEvents } from '../../shared/api-types.js';
import type { OwnerKey } from '../../main/app/create-app.js';
import { nowTs } from './test-server.js';

/**
 * A client of `GET /api/v0/events` as the window reads it: fetch with a streaming body (EventSource cannot
 * send the key headers), the server-sent events parsed as they come. `next` waits, with a deadline, for
 * the next event (optionally the next one that matches), never for a fixed time.
 */

export interface ReceivedEvent {
  event: string;
  data: unknown;
}

export interface EventReader {
  status: number;
  headers: Headers;
  /** Raw `retry:` values and comments seen so far, in order. */
  readonly controls: string[];
  /** Resolves with the next event (skipping ones `match` refuses); rejects at the deadline or when the stream ends first. */
  next<K extends ServiceEventName>(name?: K, match?: (data: ServiceEvents[K]) => boolean, deadlineMs?: number): Promise<ServiceEvents[K]>;
  /** Every event received and not yet taken by `next`. */
  pending(): ReceivedEvent[];
  /** Resolves once the server ended the stream (rejects at the deadline). */
  ended(deadlineMs?: number): Promise<void>;
  close(): void;
}

export async function openEvents(server: { url: string }, key: OwnerKey, query: Record<string, string> = {}): Promise<EventReader> {
  const controller = new AbortController();
  const params = new URLSearchParams({ ts: String(nowTs()), ...query });
  const response = await fetch(`${server.url}/api/v0/events?${params.toString()}`, {
    headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    signal: controller.signal,
  });
  const received: ReceivedEvent[] = [];
  const controls: string[] = [];
  const waiters = new Set<() => void>();
  let done = false;
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter();
  };

  if (response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || line.startsWith('retry:')) controls.push(line);
              else if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length > 0) received.push({ event, data: JSON.parse(data.join('\n')) as unknown });
          }
          wake();
        }
      } catch {
        // Aborted by close(), or the server cut the connection: either way the stream is over.
      }
      done = true;
      wake();
    })();
  } else {
    done = true;
  }

  const waitFor = <T>(what: string, probe: () => T | undefined, deadlineMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const value = probe();
        if (value !== undefined) {
          finish();
          resolve(value);
        } else if (done) {
          finish();
          reject(new Error(`event stream ended while waiting for ${what}; unread: ${JSON.stringify(received)}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no ${what} within ${deadlineMs} ms; unread: ${JSON.stringify(received)}`));
      }, deadlineMs);
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    status: response.status,
    headers: response.headers,
    controls,
    next(name, match, deadlineMs = 20_000) {
      return waitFor(
        `event ${name ?? '(any)'}`,
        () => {
          for (;;) {
            const first = received.shift();
            if (first === undefined) return undefined;
            if (name !== undefined && first.event !== name) continue;
            const data = first.data as ServiceEvents[NonNullable<typeof name>];
            if (match === undefined || match(data)) return data;
          }
        },
        deadlineMs,
      );
    },
    pending: () => [...received],
    ended(deadlineMs = 20_000) {
      return waitFor('the end of the stream', () => (done ? true : undefined), deadlineMs).then(() => undefined);
    },
    close() {
      controller.abort();
    },
  };
}
