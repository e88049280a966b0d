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

  it('binds 127.0.0.1:5080 with a 300 s ts window and no CORS origins unless told otherwise', () => {
    const config = defaultConfig();
    expect(config).toMatchObject({ host: '127.0.0.1', port: 5080, tsWindowSeconds: 300, allowOrigins: [], publicGateway: false });
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
