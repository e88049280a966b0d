import { networkSection } from '../../network/network-section.js';

/**
 * `POST /api/v0/settings/network` (contract section 11): a change of where Pinfold reaches the network.
 * The body is the settings file's network section in the same words (network-section.ts: one schema for
 * both), its whole named `body`.
 */
export const NetworkPatchBody = networkSection('body');
