import type { ReactNode } from 'react';
import type { SettingView } from '../../../shared/api-types.js';

/** A value as a sentence shows it: a list joined, on/off for a switch. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

/**
 * What a field says under it: what the setting does, then, when a flag pins it, which flag (the field is
 * disabled), or, when the saved value waits for a restart, that a restart applies it and where.
 */
export function SettingNote({ about, setting, restartHow }: { about: ReactNode; setting: SettingView<unknown>; restartHow: string }) {
  if (setting.pinned_by !== null) {
    return (
      <span className="setting-pinned">
        Set by <code>{setting.pinned_by}</code> for this run (in use: {describeValue(setting.value)}). What you save here applies when the service starts
        without it.
      </span>
    );
  }
  return (
    <>
      {about}
      {setting.restart_required ? (
        <span className="setting-restart" data-testid="restart-note">
          <strong>Restart to apply:</strong> {describeValue(setting.saved)} is saved, {describeValue(setting.value)} is in use. {restartHow}
        </span>
      ) : null}
    </>
  );
}
