import { boolean, picklist } from 'valibot';
import type { SettingSpecs } from '../base/settings-schema.js';

/** The window's themes: `system` follows the OS's light or dark. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeName = (typeof THEMES)[number];

/** How the window looks, in settings.json's `window` section: the service keeps it, the window reads it. */
export type WindowSettingValues = {
  theme: ThemeName;
  /** The owner's window showed its first-run welcome (skipped or a step taken): never again on this data folder. */
  welcome_seen: boolean;
};

/** Applies at once: the next read of the settings (the window's) gets it. */
export const WINDOW_SETTINGS: SettingSpecs<WindowSettingValues> = {
  theme: { section: 'window', schema: picklist(THEMES, `theme: one of ${THEMES.join(', ')} is required`), fallback: 'system', flag: null, applies: 'now' },
  welcome_seen: { section: 'window', schema: boolean('welcome_seen: true or false is required'), fallback: false, flag: null, applies: 'now' },
};
