/**
 * The one function every API call goes through: builds the URL (with `ts` on authenticated calls),
 * sends the key headers, reads the envelope and checks the data's shape. Plain TypeScript over `fetch`
 * (no DOM types), so it runs unchanged in the browser and in unit tests under Node. The area modules
 * beside this file (account.ts, pins.ts, ...) are thin, typed wrappers over it.
 */
import { ApiError, apiErrorOf, isAbortError } from './api-error.js';
import { requestSignature } from './request-signature.js';
import { isRecord } from './shape.js';

/** A relative API path is resolved against any origin: only its path and query are signed. */
const ANY_ORIGIN = 'http://localhost/';

export interface Credentials {
  accessKey: string;
  accessSecret: string;
}

export type QueryValue = string | number | boolean | undefined;

export interface ApiCall {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Undefined values are left out, so optional filters can be passed as they are. */
  query?: Readonly<Record<string, QueryValue>>;
  /**
   * Sent without the key and `ts` even by a client bound to a session: the plan list, code sign-in, a
   * step-2 address's cancel (the address authorizes it) and the public-gateway probe.
   */
  keyless?: boolean;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export type ShapeCheck<T> = (value: unknown) => value is T;

/** What every list call answers: one page of records and how many match in all. */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** Cursors of the pages after and before this one, where the list offers them (the pin list: `after=`, `before=`). */
  next?: string;
  prev?: string;
}

/** Told about every call's outcome: the app turns these into "sign in again" and the offline banner. */
export interface ApiObserver {
  /** A call made with these credentials (the client's own) was refused with 401. */
  unauthorized?(credentials: Credentials, error: ApiError): void;
  /** A call got no answer at all. */
  unreachable?(error: ApiError): void;
  /** The service answered (with any status): it is reachable. */
  answered?(): void;
}

export interface ApiCoreInit {
  /** Origin of the service; '' (the default) calls the API on the page's own origin. */
  baseUrl?: string;
  /**
   * The key every call but a keyless one is signed with: the session's, so no caller passes it. A core
   * without one makes keyless calls only.
   */
  credentials?: Credentials;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; `ts` is derived from it. */
  now?: () => number;
  observer?: ApiObserver;
}

export interface ApiCore {
  /** A call whose envelope carries `data` of the checked shape; `what` names it in a protocol error. */
  data<T>(call: ApiCall, check: ShapeCheck<T>, what: string): Promise<T>;
  /** A call answered by `{code: 200, msg: "ok"}` alone. */
  empty(call: ApiCall): Promise<void>;
  /** A list call: `{code, data: [...], total}`. */
  list<T>(call: ApiCall, check: ShapeCheck<T>, what: string): Promise<ListPage<T>>;
  /** A streaming call (the event stream): the Response once its status is 200; failures as for the others. */
  stream(call: ApiCall): Promise<Response>;
  /**
   * A call answered with content, not an envelope (the gateway): the Response when its status is 2xx,
   * redirects followed; failures as for the others (a HEAD's, which has no body, by its status alone).
   */
  content(call: ApiCall): Promise<Response>;
}

export const UNREACHABLE_MESSAGE = 'Cannot reach the Pinfold service. Check that it is running.';

export function createApiCore(init: ApiCoreInit = {}): ApiCore {
  const baseUrl = (init.baseUrl ?? '').replace(/\/+$/, '');
  // Bound: calling window.fetch with another `this` throws "Illegal invocation" in browsers.
  const doFetch: typeof fetch = init.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const now = init.now ?? Date.now;
  const observer = init.observer ?? {};
  const credentials = init.credentials;

  /** The key a call is signed with; null for a keyless one. */
  const keyOf = (call: ApiCall): Credentials | null => {
    if (call.keyless === true) return null;
    // A programming error, not the service's answer: signed-out code holds only the keyless client's calls.
    if (!credentials) throw new Error(`${call.method ?? 'GET'} ${call.path} needs a key: call it with the session's client`);
    return credentials;
  };

  const send = async (call: ApiCall, accept: string): Promise<Response> => {
    const key = keyOf(call);
    const query = new URLSearchParams();
    // `ts` goes on every authenticated call (contract section 2); the plan list and code sign-in take none.
    if (key) query.set('ts', String(Math.floor(now() / 1000)));
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) query.set(name, String(value));
    }
    const headers: Record<string, string> = { Accept: accept };
    const search = query.toString();
    const target = `${baseUrl}${call.path}${search ? `?${search}` : ''}`;
    if (key) {
      // Signed, never the secret itself (request-signature.ts).
      headers['X-Access-Key'] = key.accessKey;
      headers['X-Access-Signature'] = await requestSignature(key.accessSecret, call.method ?? 'GET', new URL(target, ANY_ORIGIN));
    }
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['Content-Type'] = 'application/json';
    }
    let response: Response;
    try {
      response = await doFetch(target, {
        method: call.method ?? 'GET',
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(call.signal ? { signal: call.signal } : {}),
      });
    } catch (error) {
      if (isAbortError(error) || call.signal?.aborted) throw error;
      const failure = new ApiError('network', 0, UNREACHABLE_MESSAGE);
      observer.unreachable?.(failure);
      throw failure;
    }
    observer.answered?.();
    return response;
  };

  /** A 401 to a call signed with the client's key: the session's to hear of (a keyless call's is the caller's alone). */
  const reportUnauthorized = (call: ApiCall, error: unknown): void => {
    if (error instanceof ApiError && error.isUnauthorized && credentials && call.keyless !== true) observer.unauthorized?.(credentials, error);
  };

  /** Reads the envelope; reports a 401 made with the key before rethrowing it. */
  const envelope = async (call: ApiCall, response: Response): Promise<Record<string, unknown>> => {
    try {
      return await parseEnvelope(response);
    } catch (error) {
      reportUnauthorized(call, error);
      throw error;
    }
  };

  return {
    data: async (call, check, what) => {
      const body = await envelope(call, await send(call, 'application/json'));
      if (!check(body.data)) throw new ApiError('protocol', 200, `The service sent ${what} in an unexpected shape.`);
      return body.data;
    },
    empty: async (call) => {
      await envelope(call, await send(call, 'application/json'));
    },
    list: async (call, check, what) => {
      const body = await envelope(call, await send(call, 'application/json'));
      const items = body.data;
      if (!Array.isArray(items) || !items.every(check) || typeof body.total !== 'number') {
        throw new ApiError('protocol', 200, `The service sent ${what} in an unexpected shape.`);
      }
      return {
        items,
        total: body.total,
        ...(typeof body.next === 'string' ? { next: body.next } : {}),
        ...(typeof body.prev === 'string' ? { prev: body.prev } : {}),
      };
    },
    content: async (call) => {
      const response = await send(call, '*/*');
      if (response.ok) return response;
      if (call.method !== 'HEAD') await envelope(call, response);
      const failure = new ApiError('http', response.status, `the gateway answered ${response.status}`);
      reportUnauthorized(call, failure);
      throw failure;
    },
    stream: async (call) => {
      const response = await send(call, 'text/event-stream');
      if (response.status === 200 && response.body) return response;
      // Not the stream: the answer is an error envelope (or something that is not the API).
      await envelope(call, response);
      throw new ApiError('protocol', response.status, `The service answered ${response.status} instead of an event stream.`);
    },
  };
}

/** Reads `{code, msg, data}`; any code but 200 becomes an {@link ApiError} carrying code, msg and the stable `error`. */
export async function parseEnvelope(response: Response): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (isAbortError(error)) throw error;
    throw new ApiError('protocol', response.status, `The service answered ${response.status} without a JSON body.`);
  }
  if (!isRecord(body) || typeof body.code !== 'number') {
    throw new ApiError('protocol', response.status, `The service answered ${response.status} without an API envelope.`);
  }
  if (body.code !== 200 || !response.ok) throw apiErrorOf(body, response.status);
  return body;
}
