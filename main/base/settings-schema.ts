import { custom, integer, maxValue, minValue, number, object, optional, pipe, rawCheck, unknown, type GenericSchema } from 'valibot';

/**
 * How a change of a setting takes effect: at once (`now`), at the service's next start (`restart`: the
 * port, the public gateway), or by the desktop app, which reads it from the service (`desktop`).
 */
export type SettingApplies = 'now' | 'restart' | 'desktop';

/**
 * One setting of settings.json, declared by the part it configures (network/network-section.ts,
 * pins/gc-section.ts, ...). Its name, the key of the record of specs, is the same in the file and in the
 * API (`gc_interval_seconds`), so that a refusal names what the user wrote either way.
 */
export interface SettingSpec<T> {
  /** The section of settings.json that keeps it (`gc`). */
  readonly section: string;
  /**
   * A value as the file and the API give it, checked in words that start with the setting's name. null is
   * no value and is refused: a setting goes back to its default when its key is removed from the file.
   */
  readonly schema: GenericSchema<unknown, T>;
  /** The value of a fresh install. */
  readonly fallback: T;
  /** The command-line flag that wins over the saved value for a run, as the view names it (`--gc-interval`). */
  readonly flag: string | null;
  readonly applies: SettingApplies;
}

/** The specs of a record of settings, one per key. */
export type SettingSpecs<V> = { readonly [K in keyof V]: SettingSpec<V[K]> };

/** The names of a record of settings, in the order its specs declare them (the order faults are reported in). */
export function settingNames<V extends object>(specs: SettingSpecs<V>): Extract<keyof V, string>[] {
  return Object.keys(specs) as Extract<keyof V, string>[];
}

const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The schema of some settings given together: a section of the file, or a change through the API. Any of
 * the settings may be given; a key that is none of them is refused before any value is looked at, naming
 * it; then each value by its own schema, in the specs' order. `where` names the whole in the messages about
 * it (`body`, or the file's section).
 */
export function settingsObject<V extends object>(specs: SettingSpecs<V>, where: string): GenericSchema<unknown, Partial<V>> {
  const names = settingNames(specs);
  const entries = Object.fromEntries(names.map((name) => [name, optional(specs[name].schema)]));
  const schema = pipe(
    unknown(),
    custom<Record<string, unknown>>(isJsonObject, `${where}: a JSON object is required`),
    rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const input = dataset.value;
      const key = Object.keys(input).find((name) => !(names as string[]).includes(name));
      if (key === undefined) return;
      addIssue({ message: `${where}: unknown setting "${key}"`, path: [{ type: 'object', origin: 'key', input, key, value: input[key] }] });
    }),
    object(entries),
  );
  // The entries are the specs' own schemas, key by key, each optional: the output is a Partial<V>, which
  // valibot cannot see through entries built from a mapped type.
  return schema as unknown as GenericSchema<unknown, Partial<V>>;
}

/** A whole number from `min` to `max`, refused in one sentence that names the setting and the range. */
export function wholeNumberSetting(name: string, min: number, max: number, unit?: string): GenericSchema<unknown, number> {
  const message = `${name}: a whole number${unit === undefined ? '' : ` of ${unit}`} from ${min} to ${max} is required`;
  return pipe(number(message), integer(message), minValue(min, message), maxValue(max, message));
}
