/**
 * The theme choice of Settings: follow the system (the default) or force light or dark. Stored in
 * localStorage (it is a preference of this browser, not a secret) and applied as `data-theme` on <html>
 * before the first paint by theme-boot.js, which must agree with these names (a unit test checks it).
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_STORAGE_KEY = 'pinfold.theme';

export function parseThemeChoice(value: string | null): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** The theme actually shown. */
export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): Theme {
  return choice === 'system' ? (systemPrefersDark ? 'dark' : 'light') : choice;
}
