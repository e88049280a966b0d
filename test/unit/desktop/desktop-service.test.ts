import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesktopService, serviceProcessArgs } from '../../../main/desktop/desktop-service.js';
import type { ServiceChild } from '../../../main/desktop/service-supervisor.js';
import type { ServiceStatus } from '../../../main/desktop/service-supervisor-state.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { makeTempDir } from '../../helpers/test-server.js';

function fakeChild() {
  const events = new EventEmitter();
  const child: ServiceChild = {
    postMessage: () => undefined,
    onMessage: (listener) => void events.on('message', listener),
    onExit: (listener) => void events.on('exit', listener),
    kill: () => undefined,
  };
  return { child, say: (message: unknown) => events.emit('message', message), exit: (code: number) => events.emit('exit', code, null) };
}

const next = (service: { onStateChange(listener: (status: ServiceStatus) => void): () => void }, state: ServiceStatus['state']) =>
  new Promise<ServiceStatus>((resolve) => {
    const stop = service.onStateChange((status) => {
      if (status.state !== state) return;
      stop();
      resolve(status);
    });
  });

describe("the desktop's service", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('starts `pinfold serve --keychain` on the data folder and port', () => {
    expect(serviceProcessArgs({ dataDir: '/data', port: 5080 })).toEqual(['serve', '--data', '/data', '--port', '5080', '--keychain']);
  });

  it('tells running once the owner key is read from the folder; a restart keeps the port the service had', async () => {
    const dataDir = await makeTempDir('pinfold-desktop-service-');
    dirs.push(dataDir);
    const owner = { access_key: '0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e', access_secret: 's'.repeat(64) };
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, home: 'file' }));
    writeFileSync(join(dataDir, 'owner-key.json'), JSON.stringify(owner));
    const launches: string[][] = [];
    const children: ReturnType<typeof fakeChild>[] = [];
    const service = createDesktopService({
      config: { dataDir, port: 0 },
      launch: (args) => {
        launches.push(args);
        const made = fakeChild();
        children.push(made);
        return made.child;
      },
      keychain: { service: 'Pinfold', entry: memoryKeychain().factory },
      policy: { backoffMs: () => 1, maxCrashes: 5, crashWindowMs: 60_000, stopDeadlineMs: 1000 },
    });
    service.supervisor.start();
    expect(service.url()).toBeNull();
    const running = next(service, 'running');
    children[0]?.say({ type: 'ready', url: 'http://127.0.0.1:43210' });
    expect(await running).toEqual({ state: 'running', url: 'http://127.0.0.1:43210' });
    expect(service.url()).toBe('http://127.0.0.1:43210');
    expect(service.ownerKey()).toEqual(owner);
    expect(service.current()).toEqual({ state: 'running', url: 'http://127.0.0.1:43210' });

    const restarting = next(service, 'restarting');
    const startingAgain = next(service, 'starting');
    children[0]?.exit(1);
    await restarting;
    expect(service.url()).toBeNull();
    await startingAgain;
    expect(launches.map((args) => args[4])).toEqual(['0', '43210']);
  });
});
