import { readTextIfExists } from './read-if-exists.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * `<data>/settings.json`: what the user chose in the window's Settings page (or by hand), kept across runs.
 * One object of sections, each owned and validated by the part it configures (`network`: main/network, `gc`:
 * main/pins, ...; the whole list: main/http/settings-catalog.ts, read and written by settings-store.ts);
 * this file only reads and writes the whole, so sections never clobber one another. Command-line flags win
 * over it for their run, and are never written into it (docs/settings.md).
 *
 * `{"version":1,"network":{"offline":true},"gc":{"gc_interval_seconds":600}}`
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
 * One writer of a data folder's settings: each write reads the file, replaces the sections its caller owns
 * (a section given as undefined goes) and writes the whole atomically (0600: endpoints may name private
 * hosts), one write at a time. Sections it does not own (another program's, a newer Pinfold's) are kept
 * as they are.
 */
export class SettingsFile {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  read(): Promise<SettingsSections> {
    return readSettingsFile(this.path);
  }

  writeSections(owned: Readonly<Record<string, unknown>>): Promise<void> {
    const write = async (): Promise<void> => {
      const next: Record<string, unknown> = { version: SETTINGS_VERSION, ...(await readSettingsFile(this.path)) };
      for (const [name, value] of Object.entries(owned)) {
        if (value === undefined) delete next[name];
        else next[name] = value;
      }
      await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    };
    const run = this.queue.then(write, write);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
