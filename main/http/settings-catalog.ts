import type { ServiceConfig } from '../base/config.js';
import type { SettingsFile } from '../base/settings-file.js';
import type { SettingSpecs } from '../base/settings-schema.js';
import { openSettingsStore, type SettingsStore } from '../base/settings-store.js';
import { CONTENT_SETTINGS, type ContentSettingValues } from '../content/content-section.js';
import { NETWORK_SETTINGS, networkValuesOf, type NetworkSettingValues } from '../network/network-section.js';
import { GC_SETTINGS, type GcSettingValues } from '../pins/gc-section.js';
import { DESKTOP_SETTINGS, type DesktopSettingValues } from './desktop-section.js';
import { SERVER_SETTINGS, type ServerSettingValues } from './server-section.js';
import { WINDOW_SETTINGS, type WindowSettingValues } from './window-section.js';

/**
 * Every setting of the data folder's settings.json (docs/settings.md), each declared by the part it
 * configures, one section a module. `GET|POST /api/v0/settings` serve them all; the composition root
 * applies each (app/open-storage.ts and the parts that read them live).
 */
export type ServiceSettingValues = ContentSettingValues &
  GcSettingValues &
  NetworkSettingValues &
  ServerSettingValues &
  DesktopSettingValues &
  WindowSettingValues;

/** In the order the API lists them and reports a change's faults in. */
export const SERVICE_SETTINGS: SettingSpecs<ServiceSettingValues> = {
  ...CONTENT_SETTINGS,
  ...GC_SETTINGS,
  ...NETWORK_SETTINGS,
  ...SERVER_SETTINGS,
  ...DESKTOP_SETTINGS,
  ...WINDOW_SETTINGS,
};

export type ServiceSettings = SettingsStore<ServiceSettingValues>;

/** The settings a run's flags pin (ServiceConfig's fields that are a setting's flag), by the settings' names. */
export function settingFlags(config: ServiceConfig): Partial<ServiceSettingValues> {
  return {
    ...(config.cidProfile !== undefined ? { cid_profile: config.cidProfile } : {}),
    ...(config.gcIntervalSeconds !== undefined ? { gc_interval_seconds: config.gcIntervalSeconds } : {}),
    ...(config.gcGraceSeconds !== undefined ? { gc_grace_seconds: config.gcGraceSeconds } : {}),
    ...networkValuesOf(config.network ?? {}),
    ...(config.port !== undefined ? { port: config.port } : {}),
    ...(config.publicGateway !== undefined ? { public_gateway: config.publicGateway } : {}),
  };
}

/** Opens the service's settings: settings.json under the run's flags (an error naming the file and the setting when it is broken). */
export function openServiceSettings(file: SettingsFile, config: ServiceConfig): Promise<ServiceSettings> {
  return openSettingsStore(file, {
    specs: SERVICE_SETTINGS,
    flags: settingFlags(config),
    // The desktop app's choice of port for its service (the saved one, or a free one): used, not pinned.
    runValues: config.desktopPort !== undefined ? { port: config.desktopPort } : {},
  });
}
