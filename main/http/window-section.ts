import { picklist } from 'valibot';
import type { SettingSpecs } from '../base/settings-schema.js';

/** The window's themes: `system` follows the OS's light or dark. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeName = (typeof THEMES)[number];

/** How the window looks, in settings.json's `window` section: the service keeps it, the window reads it. */
export type WindowSettingValues = {
  theme: ThemeName;
};

/** Applies at once: the next read of the settings (the window's) gets it. */
export const WINDOW_SETTINGS: SettingSpecs<WindowSettingValues> = {
  theme: { section: 'window', schema: picklist(THEMES, `theme: one of ${THEMES.join(', ')} is required`), fallback: 'system', flag: null, applies: 'now' },
};
