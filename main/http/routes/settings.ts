import type { FastifyInstance } from 'fastify';
import type { SettingsView } from '../../../shared/api-types.js';
import { ForbiddenError } from '../../base/errors.js';
import type { NetworkSettings } from '../../network/settings.js';
import { ok } from '../envelope.js';
import { requestInput } from '../input/request-input.js';
import { NetworkPatchBody, SettingsChangeBody } from '../input/settings-input.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';
import type { ServiceSettings } from '../settings-catalog.js';

export interface SettingsRouteDeps {
  /** Every setting of settings.json. */
  settings: ServiceSettings;
  /** The network's part of them, for the older endpoint. */
  network: NetworkSettings;
}

/** The answer of `GET|POST /api/v0/settings`: every setting, and whether any waits for the next start. */
export function settingsView(settings: ServiceSettings): SettingsView {
  const view = settings.view();
  return { settings: view, restart_required: Object.values(view).some((setting) => setting.restart_required) };
}

/**
 * `GET|POST /api/v0/settings` (docs/settings.md): the Settings page's view of every setting of the data
 * folder's settings.json, and its changes (saved, and applied at once or at the next start as each says);
 * `GET|POST /api/v0/settings/network` (contract section 11, extension), the network's part alone, as before.
 * The owner's admin keys only: these are the machine owner's choices, and the network's endpoints see every
 * fetch.
 */
export function settingsRoutes(app: FastifyInstance, deps: SettingsRouteDeps): void {
  const owner = { config: { access: 'account' as const } };
  const requireOwner = (auth: Parameters<typeof requireAuth>[0]): void => {
    if (!requireAuth(auth).account.isOwner) throw new ForbiddenError('only the owner may read or change the service settings');
  };

  app.get('/api/v0/settings', owner, async (request) => {
    requireOwner(request.auth);
    return ok(settingsView(deps.settings));
  });

  app.post('/api/v0/settings', owner, async (request) => {
    requireOwner(request.auth);
    // Parsed whole before anything is saved: a bad value changes nothing.
    const change = requestInput(SettingsChangeBody, await readJsonObject(request.raw));
    await deps.settings.update(change);
    return ok(settingsView(deps.settings));
  });

  app.get('/api/v0/settings/network', owner, async (request) => {
    requireOwner(request.auth);
    return ok(deps.network.view());
  });

  app.post('/api/v0/settings/network', owner, async (request) => {
    requireOwner(request.auth);
    const patch = requestInput(NetworkPatchBody, await readJsonObject(request.raw));
    await deps.network.update(patch);
    return ok(deps.network.view());
  });
}
