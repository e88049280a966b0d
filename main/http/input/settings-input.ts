import { settingsObject } from '../../base/settings-schema.js';
import { networkSection } from '../../network/network-section.js';
import { SERVICE_SETTINGS } from '../settings-catalog.js';

/**
 * `POST /api/v0/settings`: a change of any of the service's settings, in settings.json's names (one schema
 * a setting for the file and the API: settings-catalog.ts). A refusal names the setting (`param`), a key
 * that is no setting first.
 */
export const SettingsChangeBody = settingsObject(SERVICE_SETTINGS, 'body');

/**
 * `POST /api/v0/settings/network` (contract section 11): a change of where Pinfold reaches the network,
 * the network settings alone (network-section.ts), its whole named `body`.
 */
export const NetworkPatchBody = networkSection('body');
