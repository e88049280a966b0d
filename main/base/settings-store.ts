import { safeParse } from 'valibot';
import { SettingsFileError, type SettingsFile } from './settings-file.js';
import { settingNames, settingsObject, type SettingApplies, type SettingSpecs } from './settings-schema.js';

/**
 * The one place that lays what a run was told over what the data folder saved (docs/settings.md): for each
 * setting, a flag given for this run wins, else what the run was started with (the desktop's port), else
 * settings.json's value, else the default. A change is saved and, unless the setting applies at the next
 * start only, takes effect at once; a flag still wins over it for this run.
 */

/** One setting as the API shows it (`GET /api/v0/settings`). */
export interface SettingView<T> {
  /** What this run uses now. */
  value: T;
  /** What settings.json holds, or the default when it holds nothing: what the next start uses unless a flag pins it. */
  saved: T;
  default: T;
  /** The flag that pins the value for this run (`--gc-interval`), or null. */
  pinned_by: string | null;
  applies: SettingApplies;
  /** The saved value differs from the one in use and only a start applies it (no flag pins it). */
  restart_required: boolean;
}

export type SettingsViewOf<V> = { [K in keyof V]: SettingView<V[K]> };

export interface SettingsStore<V> {
  /** What this run uses now. */
  current(): Readonly<V>;
  view(): SettingsViewOf<V>;
  /**
   * Saves the values given (each one checked already: the API's schema is the file's) and applies those that
   * apply at once. Changes are made one after another, each on the values the one before left, so that two
   * made together both stay. Nothing changes, in the file or in use, if the write fails.
   */
  update(patch: Partial<V>): Promise<void>;
  /** Called after a change that moved a value in use, with the values before it. */
  onChange(listener: (current: Readonly<V>, before: Readonly<V>) => void): () => void;
}

export interface SettingsStoreInit<V> {
  specs: SettingSpecs<V>;
  /** Given for this run (the command line): each wins over the saved value, and the view says it pins it. */
  flags?: Partial<V>;
  /** What this run was started with in place of the saved value, pinning nothing (the desktop's port). */
  runValues?: Partial<V>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The keys of `values` that hold a value (a schema's output leaves an absent optional key undefined). */
function definedOnly<V extends object>(values: Partial<V>): Partial<V> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<V>;
}

/** The sections the specs keep their settings in, each with its settings. */
function sectionsOf<V extends object>(specs: SettingSpecs<V>): Map<string, Extract<keyof V, string>[]> {
  const sections = new Map<string, Extract<keyof V, string>[]>();
  for (const name of settingNames(specs)) sections.set(specs[name].section, [...(sections.get(specs[name].section) ?? []), name]);
  return sections;
}

function pick<V extends object>(specs: SettingSpecs<V>, names: readonly Extract<keyof V, string>[]): SettingSpecs<Partial<V>> {
  return Object.fromEntries(names.map((name) => [name, specs[name]])) as unknown as SettingSpecs<Partial<V>>;
}

/**
 * The values settings.json holds for these specs (no default filled in). A file that cannot be read, or a
 * section of it with a value its schema refuses, is an error naming the file and the setting; sections that
 * none of the specs keep are not looked at.
 */
export async function readSavedSettings<V extends object>(file: SettingsFile, specs: SettingSpecs<V>): Promise<Partial<V>> {
  const sections = await file.read();
  let saved: Partial<V> = {};
  for (const [section, names] of sectionsOf(specs)) {
    if (sections[section] === undefined) continue;
    const read = safeParse(settingsObject(pick(specs, names), section), sections[section], { abortEarly: true });
    if (!read.success) throw new SettingsFileError(`${file.path}: ${read.issues[0].message}`);
    saved = { ...saved, ...definedOnly(read.output as Partial<V>) };
  }
  return saved;
}

/** Opens the settings of `specs` in `file` (an error naming the file and the setting when it is broken). */
export async function openSettingsStore<V extends object>(file: SettingsFile, init: SettingsStoreInit<V>): Promise<SettingsStore<V>> {
  const { specs } = init;
  const flags = definedOnly(init.flags ?? {});
  const runValues = definedOnly(init.runValues ?? {});
  const names = settingNames(specs);
  const sections = sectionsOf(specs);
  let explicit = await readSavedSettings(file, specs);

  const savedValue = <K extends Extract<keyof V, string>>(name: K): V[K] => explicit[name] ?? specs[name].fallback;
  const startValue = <K extends Extract<keyof V, string>>(name: K): V[K] => flags[name] ?? runValues[name] ?? savedValue(name);
  const valuesOf = (value: <K extends Extract<keyof V, string>>(name: K) => V[K]): V => Object.fromEntries(names.map((name) => [name, value(name)])) as V;
  let current = valuesOf(startValue);
  const listeners = new Set<(current: Readonly<V>, before: Readonly<V>) => void>();

  /** The sections to write: each with the settings saved in it, or undefined (removed) when it has none. */
  const fileSections = (values: Partial<V>): Record<string, unknown> =>
    Object.fromEntries(
      [...sections].map(([section, keys]) => {
        const kept = keys.filter((key) => values[key] !== undefined).map((key) => [key, values[key]]);
        return [section, kept.length === 0 ? undefined : Object.fromEntries(kept)];
      }),
    );

  let queue: Promise<unknown> = Promise.resolve();
  const apply = async (patch: Partial<V>): Promise<void> => {
    const next = { ...explicit, ...definedOnly(patch) };
    await file.writeSections(fileSections(next));
    explicit = next;
    const before = current;
    // A setting that applies at the next start keeps the value this run started with.
    current = valuesOf((name) => (specs[name].applies === 'restart' ? before[name] : startValue(name)));
    if (!same(before, current)) for (const listener of [...listeners]) listener(current, before);
  };

  return {
    current: () => current,
    view() {
      const entries = names.map((name) => {
        const spec = specs[name];
        const pinned = flags[name] !== undefined;
        const saved = savedValue(name);
        return [
          name,
          {
            value: current[name],
            saved,
            default: spec.fallback,
            pinned_by: pinned ? spec.flag : null,
            applies: spec.applies,
            restart_required: spec.applies === 'restart' && !pinned && !same(current[name], saved),
          },
        ];
      });
      return Object.fromEntries(entries) as SettingsViewOf<V>;
    },
    update(patch) {
      if (Object.keys(definedOnly(patch)).length === 0) return Promise.resolve();
      const run = queue.then(
        () => apply(patch),
        () => apply(patch),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
