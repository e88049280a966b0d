import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, defaultDataDir } from '../../../main/base/config.js';
import { systemClock, unixSeconds } from '../../../main/base/clock.js';

describe('config defaults', () => {
  it('puts data in the OS application-data folder', () => {
    expect(defaultDataDir('linux', {})).toBe(join(homedir(), '.local', 'share', 'pinfold'));
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/x/data' })).toBe(join('/x/data', 'pinfold'));
    expect(defaultDataDir('darwin', {})).toBe(join(homedir(), 'Library', 'Application Support', 'Pinfold'));
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })).toBe(join('C:\\Users\\u\\AppData\\Roaming', 'Pinfold'));
  });

  it('binds 127.0.0.1 with a 300 s ts window and no CORS origins unless told otherwise; the settings are left to settings.json', () => {
    const config = defaultConfig();
    expect(config).toMatchObject({ host: '127.0.0.1', tsWindowSeconds: 300, allowOrigins: [] });
    // Port, GC, CID profile and public gateway are settings (docs/settings.md): a config gives them only to pin them.
    expect([config.port, config.gcIntervalSeconds, config.gcGraceSeconds, config.cidProfile, config.publicGateway]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(defaultConfig({ port: 0 }).port).toBe(0);
  });

  it('unixSeconds floors the injected clock', () => {
    expect(unixSeconds({ nowMs: () => 1_700_000_000_999 })).toBe(1_700_000_000);
    const before = Math.floor(Date.now() / 1000);
    const seconds = unixSeconds(systemClock);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
