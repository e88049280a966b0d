import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProof } from '../../../main/base/run-proof.js';
import { createDesktopService, serviceProcessArgs, type DesktopService } from '../../../main/desktop/desktop-service.js';
import type { ServiceChild } from '../../../main/desktop/service-supervisor.js';
import type { ServiceStatus } from '../../../main/desktop/service-supervisor-state.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';
import { portAnswerer } from '../../helpers/port-answerer.js';
import { makeTempDir } from '../../helpers/test-server.js';

function fakeChild() {
  const events = new EventEmitter();
  const child: ServiceChild = {
    // A stop is obeyed at once, as the service does once its app is closed.
    postMessage: (message) => void (message.type === 'stop' && events.emit('exit', 0, null)),
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
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('starts `pinfold serve --keychain` on the data folder and the port it chose, pinning the port only when the app was given it', () => {
    expect(serviceProcessArgs({ dataDir: '/data', port: 5080 })).toEqual(['serve', '--data', '/data', '--desktop-port', '5080', '--keychain']);
    expect(serviceProcessArgs({ dataDir: '/data', port: 5080, portPinned: true })).toEqual(['serve', '--data', '/data', '--port', '5080', '--keychain']);
  });

  /** A data folder whose owner key is in a file, and a desktop service over fake children that remembers their launches. */
  async function desktopOverFakes() {
    const dataDir = await makeTempDir('pinfold-desktop-service-');
    dirs.push(dataDir);
    const owner = { access_key: '0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e', access_secret: 's'.repeat(64) };
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ version: 1, home: 'file' }));
    writeFileSync(join(dataDir, 'owner-key.json'), JSON.stringify(owner));
    const launches: Array<{ args: string[]; env: Record<string, string> }> = [];
    const children: ReturnType<typeof fakeChild>[] = [];
    const service = createDesktopService({
      config: { dataDir, port: 0 },
      launch: (args, env) => {
        launches.push({ args, env });
        const made = fakeChild();
        children.push(made);
        return made.child;
      },
      keychain: { service: 'Pinfold', entry: memoryKeychain().factory },
      policy: { backoffMs: () => 1, maxCrashes: 5, crashWindowMs: 60_000, stopDeadlineMs: 1000 },
      proof: { timeoutMs: 5000 },
    });
    /** The token the newest process was started with. */
    const token = () => launches[launches.length - 1]?.env.PINFOLD_RUN_TOKEN ?? '';
    return { dataDir, owner, launches, children, service, token };
  }

  /** What the real service does on its port: answers proofs with its run's token. */
  const serviceOnPort = async (token: () => string, port = 0) => {
    const answerer = await portAnswerer((nonce) => runProof(token(), nonce), port);
    closers.push(answerer.close);
    return answerer;
  };

  it('tells running once the process on the port proved it holds its run token and the owner key is read; a restart keeps the port', async () => {
    const { owner, launches, children, service, token } = await desktopOverFakes();
    service.supervisor.start();
    expect(service.url()).toBeNull();
    const port = await serviceOnPort(token);
    const running = next(service, 'running');
    children[0]?.say({ type: 'ready', url: port.url });
    expect(await running).toEqual({ state: 'running', url: port.url });
    expect(service.url()).toBe(port.url);
    expect(service.ownerKey()).toEqual(owner);
    expect(service.verifiedRun()).toBe(1);
    expect(service.current()).toEqual({ state: 'running', url: port.url });
    // The proof was asked without any key.
    expect(port.seen.map((request) => request.url.split('?')[0])).toEqual(['/api/v0/service/proof']);
    expect(port.seen[0]?.headers['x-access-key']).toBeUndefined();

    const restarting = next(service, 'restarting');
    const startingAgain = next(service, 'starting');
    children[0]?.exit(1);
    await restarting;
    expect(service.url()).toBeNull();
    await startingAgain;
    expect(launches.map(({ args }) => args[4])).toEqual(['0', String(port.port)]);
  });

  it('starts each process with a run token of its own, in its environment and never on its command line', async () => {
    const { launches, children, service, token } = await desktopOverFakes();
    service.supervisor.start();
    const port = await serviceOnPort(token);
    const running = next(service, 'running');
    children[0]?.say({ type: 'ready', url: port.url });
    await running;
    children[0]?.exit(1);
    await next(service, 'starting');
    const [first, second] = launches.map(({ env }) => env.PINFOLD_RUN_TOKEN ?? '');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    for (const { args } of launches) expect(args.join(' ')).not.toContain(first);
  });

  it('forgets the owner key and the URL whenever the service is not running', async () => {
    const { children, service, token } = await desktopOverFakes();
    service.supervisor.start();
    const port = await serviceOnPort(token);
    const running = next(service, 'running');
    children[0]?.say({ type: 'ready', url: port.url });
    await running;
    expect(service.ownerKey()).not.toBeNull();
    const restarting = next(service, 'restarting');
    children[0]?.exit(1);
    await restarting;
    expect(service.ownerKey()).toBeNull();
    expect(service.url()).toBeNull();
    expect(service.verifiedRun()).toBeNull();
  });

  /** The child announces a URL where a squatter answers as `answer` says; the service must stop it and say why. */
  async function squatted(answer: (token: string, nonce: string) => string | null): Promise<DesktopService> {
    const { children, service, token } = await desktopOverFakes();
    service.supervisor.start();
    const squatter = await portAnswerer((nonce) => answer(token(), nonce));
    closers.push(squatter.close);
    const told: ServiceStatus[] = [];
    service.onStateChange((status) => told.push(status));
    const crashed = next(service, 'crashed');
    children[0]?.say({ type: 'ready', url: squatter.url });
    const status = await crashed;
    expect(status.detail).toMatch(new RegExp(`^Something other than the Pinfold service answers at ${squatter.url} \\(.+\\); the service was stopped\\.$`));
    expect(told.map((one) => one.state)).toEqual(['crashed']);
    expect(service.url()).toBeNull();
    expect(service.ownerKey()).toBeNull();
    expect(service.verifiedRun()).toBeNull();
    expect(service.supervisor.status().state).toBe('stopped');
    return service;
  }

  it('never tells running for a port that answers no proof: the process is stopped and reported', async () => {
    await squatted(() => null);
  });

  it('refuses a proof replayed from an earlier exchange, one of another token, and garbage', async () => {
    const earlierNonce = Buffer.alloc(32, 9).toString('base64url');
    await squatted((token) => runProof(token, earlierNonce));
    await squatted((_token, nonce) => runProof(Buffer.alloc(32, 7).toString('base64url'), nonce));
    await squatted(() => 'x'.repeat(43));
  });

  it('starts the service with --public-gateway when the app was launched with it', () => {
    const launches: string[][] = [];
    const service = createDesktopService({
      config: { dataDir: '/data', port: 5080, publicGateway: true },
      launch: (args) => {
        launches.push(args);
        return fakeChild().child;
      },
      keychain: { service: 'Pinfold', entry: memoryKeychain().factory },
    });
    service.supervisor.start();
    expect(launches).toEqual([['serve', '--data', '/data', '--desktop-port', '5080', '--keychain', '--public-gateway']]);
  });
});
