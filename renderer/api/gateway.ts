import { ApiError } from './api-error.js';
import type { ApiCore, Credentials } from './core.js';

/** A content path of the gateway: `/ipfs/<cid>` or `/ipns/<name>` (with a path under it). */
export type ContentPath = `/ipfs/${string}` | `/ipns/${string}`;

export interface GatewayApi {
  /**
   * Whether the gateway serves `path` without a key (`pinfold serve --public-gateway`): then a plain
   * link opens it in any tab. HEAD, no credentials; a refusal (400 for the missing ts, 401) is false.
   */
  isPublic(path: ContentPath, signal?: AbortSignal): Promise<boolean>;
  /** HEAD of the content with the key headers: its type, and where a folder's redirect ended. */
  head(credentials: Credentials, path: ContentPath, signal?: AbortSignal): Promise<Response>;
  /** GET of the content with the key headers, as a Response to read as a stream or a Blob. */
  get(credentials: Credentials, path: ContentPath, query?: { format?: 'tar' | 'car' }, signal?: AbortSignal): Promise<Response>;
}

export function gatewayApi(core: ApiCore): GatewayApi {
  return {
    isPublic: async (path, signal) => {
      try {
        await core.content({ method: 'HEAD', path, signal });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'http' && (error.code === 400 || error.code === 401 || error.code === 403)) return false;
        throw error;
      }
    },
    head: (credentials, path, signal) => core.content({ method: 'HEAD', path, credentials, signal }),
    get: (credentials, path, query = {}, signal) => core.content({ path, credentials, signal, query: { ...query } }),
  };
}
