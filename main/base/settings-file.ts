import { readTextIfExists } from './read-if-exists.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * `<data>/settings.json`: what the user chose in the window's Settings page (or by hand), kept across runs.
 * One object of sections, each owned and validated by the part it configures (`network`: main/network/settings.ts);
 * this file only reads and writes the whole, so sections never clobber one another. Command-line flags win
 * over it for their run, and are never written into it.
 *
 * `{"version":1,"network":{"fetch_from":["https://…"],"routing":["https://…"],"offline":false}}`
 */

export const SETTINGS_VERSION = 1;

export type SettingsSections = Readonly<Record<string, unknown>>;

export class SettingsFileError extends Error {
  override readonly name = 'SettingsFileError';
}

/** The sections of the file, or none when there is no file yet. A file that is not ours to read is an error naming it. */
export async function readSettingsFile(path: string): Promise<SettingsSections> {
  const text = await readTextIfExists(path);
  if (text === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SettingsFileError(`${path} is not valid JSON; fix it or remove it to start from the defaults`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SettingsFileError(`${path} must hold a JSON object`);
  const { version, ...sections } = parsed as Record<string, unknown>;
  if (version !== SETTINGS_VERSION)
    throw new SettingsFileError(`${path} has version ${JSON.stringify(version)}; this Pinfold reads version ${SETTINGS_VERSION}`);
  return sections;
}

/**
 * One writer of a data folder's settings: each change reads the file, replaces its section and writes the
 * whole atomically (0600: endpoints may name private hosts), one change at a time.
 */
export class SettingsFile {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  read(): Promise<SettingsSections> {
    return readSettingsFile(this.path);
  }

  writeSection(section: string, value: unknown): Promise<void> {
    const write = async (): Promise<void> => {
      const sections = await readSettingsFile(this.path);
      const next = { version: SETTINGS_VERSION, ...sections, [section]: value };
      await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    };
    const run = this.queue.then(write, write);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
