import { is, type InferOutput } from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { SettingsView } from '../../../../shared/api-types.js';
import { SettingsViewSchema } from '../../../../shared/schemas/settings.js';
import { variantsOf } from './variants.js';

const setting = <T>(value: T, applies: 'now' | 'restart' | 'desktop', pinnedBy: string | null = null) => ({
  value,
  saved: value,
  default: value,
  pinned_by: pinnedBy,
  applies,
  restart_required: false,
});

/** A `GET /api/v0/settings` answer as a fresh `pinfold serve --port 0` gives it (example hosts: tests name no public one). */
const SETTINGS: SettingsView = {
  settings: {
    cid_profile: setting('unixfs-v1-2025', 'now'),
    gc_interval_seconds: setting(3600, 'now'),
    gc_grace_seconds: setting(600, 'now'),
    fetch_from: setting(['https://gateway.example'], 'now'),
    routing: setting(['https://routing.example'], 'now'),
    offline: setting(false, 'now'),
    port: { ...setting(5080, 'restart', '--port'), value: 0 },
    public_gateway: setting(false, 'restart'),
    launch_at_login: setting(null, 'desktop'),
    theme: setting('system', 'now'),
    welcome_seen: setting(false, 'now'),
  },
  restart_required: false,
};

describe('the settings schema', () => {
  it('is the wire type of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof SettingsViewSchema>>().toEqualTypeOf<SettingsView>();
  });

  it('takes the answer, and refuses every field missing or of another type (but a launch at login chosen)', () => {
    expect(is(SettingsViewSchema, SETTINGS)).toBe(true);
    expect(is(SettingsViewSchema, { ...SETTINGS, settings: { ...SETTINGS.settings, launch_at_login: setting(true, 'desktop') } })).toBe(true);
    const accepted = variantsOf(SETTINGS)
      .filter((variant) => variant.malformed && is(SettingsViewSchema, variant.value))
      .map((variant) => variant.label);
    // What a nullable field takes either way: pinned_by (a flag's name or null), and launch at login (null
    // until chosen, then a boolean).
    const nullable = /^settings\.(\w+\.pinned_by: (null|"[^"]*")|launch_at_login\.(value|saved|default): (true|false))$/;
    expect(
      accepted.filter((label) => !nullable.test(label)),
      'malformed variants accepted',
    ).toEqual([]);
    for (const bad of [
      { ...SETTINGS, settings: { ...SETTINGS.settings, theme: setting('blue', 'now') } },
      { ...SETTINGS, settings: { ...SETTINGS.settings, offline: { ...setting(false, 'now'), applies: 'later' } } },
      { ...SETTINGS, settings: { ...SETTINGS.settings, cid_profile: setting('unixfs-v0', 'now') } },
    ])
      expect(is(SettingsViewSchema, bad)).toBe(false);
  });
});
