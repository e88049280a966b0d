import { array, boolean, nullable, number, object, picklist, string, type GenericSchema } from 'valibot';
import type { SettingView } from '../api-types.js';

/** One setting: its value in use, saved and by default, of the same shape; what pins it, how it applies. */
const setting = <T>(value: GenericSchema<unknown, T>): GenericSchema<unknown, SettingView<T>> =>
  object({
    value,
    saved: value,
    default: value,
    pinned_by: nullable(string()),
    applies: picklist(['now', 'restart', 'desktop']),
    restart_required: boolean(),
  });

/** `GET` and `POST /api/v0/settings`. */
export const SettingsViewSchema = object({
  settings: object({
    cid_profile: setting(picklist(['unixfs-v1-2025', 'unixfs-v0-2015'])),
    gc_interval_seconds: setting(number()),
    gc_grace_seconds: setting(number()),
    fetch_from: setting(array(string())),
    routing: setting(array(string())),
    offline: setting(boolean()),
    port: setting(number()),
    public_gateway: setting(boolean()),
    launch_at_login: setting(nullable(boolean())),
    theme: setting(picklist(['system', 'light', 'dark'])),
    welcome_seen: setting(boolean()),
  }),
  restart_required: boolean(),
});
