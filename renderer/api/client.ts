/**
 * Typed client of the Pinfold HTTP API for the renderer. Plain TypeScript over `fetch` (no DOM types),
 * so it runs unchanged in the browser and in unit tests under Node.
 */
import type { AccountUsage, Plan } from '../../shared/api-types.js';

export interface Credentials {
  accessKey: string;
  accessSecret: string;
}

/** `http`: the service answered with an error envelope; `network`: no answer; `protocol`: an answer that is not the API's. */
export type ApiErrorKind = 'http' | 'network' | 'protocol';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    /** The envelope's `code` (an HTTP status); 0 when there was no answer at all. */
    readonly code: number,
    /** The envelope's `msg`, or a description of what went wrong. */
    readonly msg: string,
  ) {
    super(code > 0 ? `${code}: ${msg}` : msg);
  }

  get isUnauthorized(): boolean {
    return this.kind === 'http' && this.code === 401;
  }
}

export interface ApiClientInit {
  /** Origin of the service; '' (the default) calls the API on the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; `ts` is derived from it. */
  now?: () => number;
}

export interface ApiClient {
  stats(credentials: Credentials, signal?: AbortSignal): Promise<AccountUsage>;
  plans(signal?: AbortSignal): Promise<Plan[]>;
}

export function createApiClient(init: ApiClientInit = {}): ApiClient {
  const baseUrl = (init.baseUrl ?? '').replace(/\/+$/, '');
  // Bound: calling window.fetch with another `this` throws "Illegal invocation" in browsers.
  const doFetch: typeof fetch = init.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const now = init.now ?? Date.now;

  const request = async <T>(path: string, options: { credentials?: Credentials; signal?: AbortSignal }): Promise<T> => {
    // `ts` goes on every authenticated call (contract section 2); the plan list takes none.
    const query = options.credentials ? `?ts=${Math.floor(now() / 1000)}` : '';
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.credentials) {
      headers['X-Access-Key'] = options.credentials.accessKey;
      headers['X-Access-Secret'] = options.credentials.accessSecret;
    }
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}${query}`, {
        method: 'GET',
        headers,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new ApiError('network', 0, 'Cannot reach the Pinfold service. Check that it is running.');
    }
    return parseEnvelope<T>(response);
  };

  return {
    stats: async (credentials, signal) => {
      const data = await request<unknown>('/api/v0/stats', { credentials, ...(signal ? { signal } : {}) });
      if (!isAccountUsage(data)) throw new ApiError('protocol', 200, 'The service sent stats in an unexpected shape.');
      return data;
    },
    plans: async (signal) => {
      const data = await request<unknown>('/api/v0/plans', signal ? { signal } : {});
      if (!Array.isArray(data) || !data.every(isPlan)) throw new ApiError('protocol', 200, 'The service sent plans in an unexpected shape.');
      return data;
    },
  };
}

/** Reads `{code, msg, data}`; any code but 200 becomes an {@link ApiError} carrying code and msg. */
export async function parseEnvelope<T>(response: Response): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError('protocol', response.status, `The service answered ${response.status} without a JSON body.`);
  }
  if (!isRecord(body) || typeof body.code !== 'number') {
    throw new ApiError('protocol', response.status, `The service answered ${response.status} without an API envelope.`);
  }
  if (body.code !== 200 || !response.ok) {
    const msg = typeof body.msg === 'string' && body.msg !== '' ? body.msg : `request failed with status ${response.status}`;
    throw new ApiError('http', body.code !== 200 ? body.code : response.status, msg);
  }
  return body.data as T;
}

function isAbort(error: unknown): boolean {
  return isRecord(error) && error.name === 'AbortError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const USAGE_NUMBERS = [
  'next_bill_at',
  'pinned_count',
  'pinned_count_limit',
  'pinned_bytes',
  'pinned_bytes_limit',
  'ingress',
  'ingress_limit',
  'egress',
  'egress_limit',
  'ipns',
  'ipns_limit',
] as const;

export function isAccountUsage(value: unknown): value is AccountUsage {
  return (
    isRecord(value) &&
    typeof value.plan === 'string' &&
    typeof value.name === 'string' &&
    USAGE_NUMBERS.every((key) => typeof value[key] === 'number')
  );
}

const PLAN_NUMBERS = ['id', 'pinned_count_limit', 'pinned_bytes_limit', 'ingress_limit', 'egress_limit', 'ipns_limit'] as const;

export function isPlan(value: unknown): value is Plan {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.price === 'string' &&
    PLAN_NUMBERS.every((key) => typeof value[key] === 'number')
  );
}
