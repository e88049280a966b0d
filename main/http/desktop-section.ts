import { boolean } from 'valibot';
import type { SettingSpecs } from '../base/settings-schema.js';

/** The desktop app's own settings, in settings.json's `desktop` section: the service keeps them, the app applies them. */
export type DesktopSettingValues = {
  /** null until chosen here: the app then leaves its login item as the OS has it. */
  launch_at_login: boolean | null;
};

/**
 * Applied by the desktop app (main/desktop/launch-at-login-setting.ts), which the service tells of every
 * change; `pinfold serve` only keeps it. A value is true or false: null stays the unchosen default.
 */
export const DESKTOP_SETTINGS: SettingSpecs<DesktopSettingValues> = {
  launch_at_login: {
    section: 'desktop',
    schema: boolean('launch_at_login: true or false is required'),
    fallback: null,
    flag: null,
    applies: 'desktop',
  },
};
