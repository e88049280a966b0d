import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../base/atomic-write.js';

/**
 * What the desktop shell remembers between runs, in `desktop.json` in the app's own settings folder
 * (Electron's userData, not the data folder: these are the app's, not the repository's). A missing
 * or damaged file reads as the defaults; nothing here is worth refusing to start over.
 */
export interface ShellPreferences {
  /** The "Pinfold keeps syncing in the tray" notice was shown (it is shown once). */
  readonly closeNoticeShown: boolean;
}

export const DEFAULT_PREFERENCES: ShellPreferences = { closeNoticeShown: false };

export interface PreferencesStore {
  load(): Promise<ShellPreferences>;
  save(preferences: ShellPreferences): Promise<void>;
}

export function preferencesFile(file: string): PreferencesStore {
  return {
    async load() {
      const text = await readFile(file, 'utf8').catch(() => null);
      return text === null ? DEFAULT_PREFERENCES : parsePreferences(text);
    },
    async save(preferences) {
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(preferences, null, 2)}\n`);
    },
  };
}

export function parsePreferences(text: string): ShellPreferences {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return DEFAULT_PREFERENCES;
    const { closeNoticeShown } = parsed as Record<string, unknown>;
    return { closeNoticeShown: closeNoticeShown === true };
  } catch {
    return DEFAULT_PREFERENCES;
  }
}
