import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULTS, defaultDataDir } from '../../../main/base/config.js';
import { desktopConfig, desktopServicePlan } from '../../../main/desktop/desktop-config.js';
import { serviceProcessArgs } from '../../../main/desktop/desktop-service.js';

describe('desktopConfig', () => {
  it('uses the serve defaults, so desktop and serve share one data folder; no flag given pins nothing', () => {
    const config = desktopConfig(['/opt/Pinfold/pinfold', '--enable-logging', '--no-sandbox']);
    expect(config.dataDir).toBe(defaultDataDir());
    expect(config.port).toBeUndefined();
    expect(config.publicGateway).toBeUndefined();
    expect(config.host).toBe('127.0.0.1');
  });

  it('honours --data and --port in both spellings', () => {
    expect(desktopConfig(['--data', 'rel/dir', '--port', '0'])).toMatchObject({ dataDir: resolve('rel/dir'), port: 0 });
    expect(desktopConfig(['--data=/tmp/p', '--port=6000'])).toMatchObject({ dataDir: '/tmp/p', port: 6000 });
  });

  it('honours --public-gateway, which it passes on to the service process', async () => {
    const config = desktopConfig(['--data', '/tmp/p', '--public-gateway']);
    expect(config.publicGateway).toBe(true);
    const plan = await desktopServicePlan(config);
    expect(plan).toMatchObject({ publicGatewayFlag: true, publicGateway: true });
    expect(
      serviceProcessArgs({ dataDir: config.dataDir, port: plan.preferredPort, portPinned: plan.portPinned, publicGateway: plan.publicGatewayFlag }),
    ).toEqual(['serve', '--data', '/tmp/p', '--desktop-port', String(DEFAULTS.port), '--keychain', '--public-gateway']);
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

describe("the desktop's service plan: the app's flags over the data folder's saved settings", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-desktop-plan-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('takes the saved port and public gateway when the app was not given them, pinning neither', async () => {
    expect(await desktopServicePlan(desktopConfig(['--data', dataDir]))).toEqual({
      preferredPort: DEFAULTS.port,
      portPinned: false,
      publicGatewayFlag: false,
      publicGateway: false,
    });
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, server: { port: 6123, public_gateway: true } }));
    const plan = await desktopServicePlan(desktopConfig(['--data', dataDir]));
    expect(plan).toEqual({ preferredPort: 6123, portPinned: false, publicGatewayFlag: false, publicGateway: true });
    expect(serviceProcessArgs({ dataDir, port: plan.preferredPort, portPinned: plan.portPinned, publicGateway: plan.publicGatewayFlag })).toEqual([
      'serve',
      '--data',
      dataDir,
      '--desktop-port',
      '6123',
      '--keychain',
    ]);
    // The app's own --port wins and pins; so does its --public-gateway.
    expect(await desktopServicePlan(desktopConfig(['--data', dataDir, '--port', '7000']))).toMatchObject({ preferredPort: 7000, portPinned: true });
  });

  it('stops on a broken settings.json with a message naming the file and the setting', async () => {
    const path = join(dataDir, 'settings.json');
    await writeFile(path, JSON.stringify({ version: 1, server: { port: 70000 } }));
    await expect(desktopServicePlan(desktopConfig(['--data', dataDir]))).rejects.toThrow(`${path}: port: a whole number from 0 to 65535 is required`);
  });
});
