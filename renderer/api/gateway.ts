import { ApiError } from './api-error.js';
import type { ApiCore } from './core.js';

export interface GatewayApi {
  /**
   * Whether the gateway serves `path` (`/ipfs/<cid>`, `/ipns/<name>`) without a key (`pinfold serve --public-gateway`): then a plain
   * link opens it in any tab. HEAD, no credentials; a refusal (400 for the missing ts, 401) is false. A HEAD's answer
   * has no body, so its string is the one its status stands for (api-error.ts).
   */
  isPublic(path: string, signal?: AbortSignal): Promise<boolean>;
}

export function gatewayApi(core: ApiCore): GatewayApi {
  return {
    isPublic: async (path, signal) => {
      try {
        await core.content({ method: 'HEAD', path, keyless: true, signal });
        return true;
      } catch (error) {
        if (error instanceof ApiError && (error.error === 'bad_input' || error.error === 'unauthenticated' || error.error === 'permission')) return false;
        throw error;
      }
    },
  };
}
