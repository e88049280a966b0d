import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, defaultDataDir } from '../../../main/base/config.js';
import { desktopConfig } from '../../../main/desktop/desktop-config.js';
import { serviceProcessArgs } from '../../../main/desktop/desktop-service.js';

describe('desktopConfig', () => {
  it('uses the serve defaults, so desktop and serve share one data folder', () => {
    const config = desktopConfig(['/opt/Pinfold/pinfold', '--enable-logging', '--no-sandbox']);
    expect(config.dataDir).toBe(defaultDataDir());
    expect(config.port).toBe(DEFAULTS.port);
    expect(config.host).toBe('127.0.0.1');
  });

  it('honours --data and --port in both spellings', () => {
    expect(desktopConfig(['--data', 'rel/dir', '--port', '0'])).toMatchObject({ dataDir: resolve('rel/dir'), port: 0 });
    expect(desktopConfig(['--data=/tmp/p', '--port=6000'])).toMatchObject({ dataDir: '/tmp/p', port: 6000 });
  });

  it('honours --public-gateway, which it passes on to the service process', () => {
    expect(desktopConfig(['--data', '/tmp/p']).publicGateway).toBe(false);
    const config = desktopConfig(['--data', '/tmp/p', '--public-gateway']);
    expect(config.publicGateway).toBe(true);
    expect(serviceProcessArgs(config)).toEqual(['serve', '--data', '/tmp/p', '--port', String(DEFAULTS.port), '--keychain', '--public-gateway']);
    expect(() => desktopConfig(['--public-gateway=yes'])).toThrow(/--public-gateway takes no value/);
  });

  it('rejects a bad or missing value, naming the flag', () => {
    expect(() => desktopConfig(['--port', 'http'])).toThrow(/--port/);
    expect(() => desktopConfig(['--port', '70000'])).toThrow(/--port/);
    expect(() => desktopConfig(['--port', '-1'])).toThrow(/--port/);
    expect(() => desktopConfig(['--data'])).toThrow(/--data needs a value/);
    expect(() => desktopConfig(['--data='])).toThrow(/--data needs a value/);
  });
});
