import { boolean } from 'valibot';
import { DEFAULTS } from '../base/config.js';
import { wholeNumberSetting, type SettingSpecs } from '../base/settings-schema.js';

/** How the HTTP server is reached (contract sections 1 and 5), in settings.json's `server` section. */
export type ServerSettingValues = {
  port: number;
  public_gateway: boolean;
};

/**
 * Both apply at the next start: the server listens once, and the routes a public gateway serves (the
 * Delegated Routing API) are registered at start. 0 picks a free port at each start.
 */
export const SERVER_SETTINGS: SettingSpecs<ServerSettingValues> = {
  port: { section: 'server', schema: wholeNumberSetting('port', 0, 65535), fallback: DEFAULTS.port, flag: '--port', applies: 'restart' },
  public_gateway: {
    section: 'server',
    schema: boolean('public_gateway: true or false is required'),
    fallback: false,
    flag: '--public-gateway',
    applies: 'restart',
  },
};
