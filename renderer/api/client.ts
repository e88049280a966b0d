/**
 * The typed client of the Pinfold HTTP API: one module per area over one core request function.
 * Every call takes the credentials it runs with and an AbortSignal, and resolves to checked, typed
 * data (lists as `{ items, total }`) or rejects with an ApiError (kind `http`, `network` or `protocol`).
 *
 *   const api = createApiClient();
 *   const page = await api.pins.list(credentials, { status: 'pinned', limit: 25 }, signal);
 *
 * In the app, pages get it from `useApi()` (renderer/app/session.tsx) together with the credentials.
 */
import { accountApi, type AccountApi } from './account.js';
import { createApiCore, type ApiCoreInit } from './core.js';
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

export function createApiClient(init: ApiCoreInit = {}): ApiClient {
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
