import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../base/errors.js';
import type { NetworkSettings } from '../../network/settings.js';
import { ok } from '../envelope.js';
import { requestInput } from '../input/request-input.js';
import { NetworkPatchBody } from '../input/settings-input.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

/**
 * `GET|POST /api/v0/settings/network` (contract section 11, extension): the Settings page's view of where
 * Pinfold reaches the network, and its changes (saved in the data folder, applied at once). The owner's
 * admin keys only: the endpoints are the machine owner's choice, and they see every fetch.
 */
export function settingsRoutes(app: FastifyInstance, network: NetworkSettings): void {
  const owner = { config: { access: 'account' as const } };
  const requireOwner = (auth: Parameters<typeof requireAuth>[0]): void => {
    if (!requireAuth(auth).account.isOwner) throw new ForbiddenError('only the owner may read or change the service settings');
  };

  app.get('/api/v0/settings/network', owner, async (request) => {
    requireOwner(request.auth);
    return ok(network.view());
  });

  app.post('/api/v0/settings/network', owner, async (request) => {
    requireOwner(request.auth);
    // Parsed whole before anything is saved: a bad value changes nothing.
    const patch = requestInput(NetworkPatchBody, await readJsonObject(request.raw));
    await network.update(patch);
    return ok(network.view());
  });
}
