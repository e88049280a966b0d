/**
 * The Settings page's form values: what a person types for each setting (one URL a line, a number as
 * text) and the change that sends only what differs from what is saved. Numbers are not judged here:
 * text that is no number goes as it is, so the service's one check says what is wrong beside the field.
 */
import type { ServiceSettingsValues, SettingsChange } from '../../../shared/api-types.js';

export type SettingName = keyof ServiceSettingsValues;

/** How a setting is edited: a choice, a number, a list of URLs (one a line), or on and off. */
export type SettingKind = 'choice' | 'number' | 'list' | 'switch';

/** What a field holds while edited: text, or on/off for a switch. */
export type FieldValue = string | boolean;
export type Draft = Partial<Record<SettingName, FieldValue>>;

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A saved value as its field shows it. */
export function fieldValueOf(value: ServiceSettingsValues[SettingName]): FieldValue {
  if (Array.isArray(value)) return value.join('\n');
  if (typeof value === 'boolean') return value;
  return value === null ? false : String(value);
}

/** What a field's value sends: a list of lines, a number when the text is one, else the text itself. */
function sentValueOf(kind: SettingKind, value: FieldValue): unknown {
  if (typeof value === 'boolean') return value;
  if (kind === 'list') return lines(value);
  if (kind === 'number') {
    const text = value.trim();
    return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  return value;
}

/** The settings the draft changes of the saved ones; only those are sent. */
export function changeOf(
  draft: Draft,
  kinds: Partial<Record<SettingName, SettingKind>>,
  saved: (name: SettingName) => ServiceSettingsValues[SettingName],
): SettingsChange {
  const change: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(kinds) as Array<[SettingName, SettingKind]>) {
    const value = draft[name];
    if (value === undefined) continue;
    const sent = sentValueOf(kind, value);
    if (JSON.stringify(sent) !== JSON.stringify(saved(name))) change[name] = sent;
  }
  // The service checks each value (a 400 naming the setting), so what is sent need not be valid here.
  return change;
}
