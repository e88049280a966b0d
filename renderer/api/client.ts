/**
 * The typed client of the Pinfold HTTP API: one module per area over one core request function.
 * A client is bound to the key it signs with (a session's), so no call takes credentials: each takes
 * its arguments and an AbortSignal, and resolves to checked, typed data (lists as `{ items, total }`)
 * or rejects with an ApiError (kind `http`, `network` or `protocol`).
 *
 *   const api = createApiClient({ credentials });
 *   const page = await api.pins.list({ status: 'pinned', limit: 25 }, signal);
 *
 * In the app, pages get the signed-in session's client from `useApi()` (renderer/app/session.tsx);
 * before sign-in there is the keyless client of the calls that need no key (createPublicApiClient).
 */
import { accountApi, type AccountApi } from './account.js';
import { createApiCore, type ApiCoreInit, type Credentials } from './core.js';
import { eventsApi, type EventsApi } from './events.js';
import { gatewayApi, type GatewayApi } from './gateway.js';
import { keysApi, type KeysApi } from './keys.js';
import { namesApi, type NamesApi } from './names.js';
import { partnersApi, type PartnersApi } from './partners.js';
import { pinsApi, type PinsApi } from './pins.js';
import { serviceApi, type ServiceApi } from './service.js';
import { sessionApi, type SessionApi } from './session.js';
import { syncApi, type SyncApi } from './sync.js';
import { uploadsApi, type UploadsApi } from './uploads.js';

export interface ApiClient {
  account: AccountApi;
  pins: PinsApi;
  names: NamesApi;
  keys: KeysApi;
  sync: SyncApi;
  partners: PartnersApi;
  service: ServiceApi;
  session: SessionApi;
  events: EventsApi;
  /** The content gateway (/ipfs, /ipns): whether it serves without a key. */
  gateway: GatewayApi;
  uploads: UploadsApi;
}

/** The calls that need no key: what the window makes before anyone is signed in. */
export interface PublicApiClient {
  /** The plan list (the connectivity monitor's probe). */
  account: Pick<AccountApi, 'plans'>;
  /** A sign-in link's code, redeemed. */
  session: Pick<SessionApi, 'redeem'>;
  /** A step-2 address's cancel: the address authorizes it. */
  uploads: Pick<UploadsApi, 'cancel'>;
  gateway: GatewayApi;
}

export interface ApiClientInit extends ApiCoreInit {
  /** The key every call is signed with (but the keyless ones: the PublicApiClient's). */
  credentials: Credentials;
}

export function createApiClient(init: ApiClientInit): ApiClient {
  const core = createApiCore(init);
  return {
    account: accountApi(core),
    pins: pinsApi(core),
    names: namesApi(core),
    keys: keysApi(core),
    sync: syncApi(core),
    partners: partnersApi(core),
    service: serviceApi(core),
    session: sessionApi(core),
    events: eventsApi(core),
    gateway: gatewayApi(core),
    uploads: uploadsApi(core),
  };
}

/** A client without a key, for the calls that need none. */
export function createPublicApiClient(init: Omit<ApiCoreInit, 'credentials'> = {}): PublicApiClient {
  const core = createApiCore(init);
  return { account: accountApi(core), session: sessionApi(core), uploads: uploadsApi(core), gateway: gatewayApi(core) };
}
