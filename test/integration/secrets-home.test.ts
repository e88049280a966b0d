/**
 * One home for a data folder's master key and owner key, against the real OS keychain (gnome-keyring
 * under scripts/with-keyring.sh): the desktop app's startup path (its supervisor and service process,
 * simulated under Node: the main process's keychain answers the service's requests) and `pinfold serve`
 * on one folder in either order, `pinfold secrets move` both ways, a missing keychain entry, a move
 * beside a running server, and the CLI beside a desktop-mode service whose owner key is in the keychain.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { AsyncEntry } from '@napi-rs/keyring';
import { afterEach, describe, expect, it } from 'vitest';
import type { OwnerKey } from '../../main/app/create-app.js';
import { createDesktopService, type DesktopService } from '../../main/desktop/desktop-service.js';
import { osKeychainEntry } from '../../main/secrets/keychain-entry.js';
import { locateOwnerKey } from '../../main/secrets/owner-key-locator.js';
import { runCli } from '../helpers/account-api.js';
import { folderSnapshot } from '../helpers/folder-snapshot.js';
import { nodeServiceLauncher, waitForStatus } from '../helpers/node-service-launcher.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { call, makeTempDir } from '../helpers/test-server.js';

const SERVICE = `Pinfold-test-${randomUUID()}`;
const ENV = { PINFOLD_KEYCHAIN_SERVICE: SERVICE };
const keychain = { service: SERVICE, entry: osKeychainEntry };

interface Record {
  home: string;
  keychain?: { service: string; namespace: string };
}
const recordOf = (dataDir: string): Record => JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as Record;
const item = (account: string) => new AsyncEntry(SERVICE, account, { linux: { store: 'secret-service' } });

describe("a data folder's secrets on the real keychain", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function folder(): Promise<string> {
    const dir = await makeTempDir('pinfold-secrets-real-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /** The desktop app's startup, under Node: its service supervisor, the service process, the main process's keychain. */
  async function desktop(dataDir: string): Promise<Omit<DesktopService, 'url'> & { url(): string }> {
    const launcher = nodeServiceLauncher([], ENV);
    const service = createDesktopService({ config: { dataDir, port: 0 }, launch: (args, env) => launcher.launch(args, env), keychain });
    cleanups.push(async () => {
      await service.supervisor.stop();
      await launcher.killAll();
    });
    service.supervisor.start();
    const status = await waitForStatus(service, (s) => s.state === 'running' || s.state === 'crashed');
    if (status.state !== 'running') throw new Error(`the desktop's service did not start: ${status.detail ?? ''}`);
    return {
      ...service,
      url() {
        const url = service.url();
        if (url === null) throw new Error("the desktop's service is not running");
        return url;
      },
    };
  }

  async function serve(dataDir: string, ...flags: string[]): Promise<{ proc: ServeProcess; url: string }> {
    const proc = startServe(['--data', dataDir, '--port', '0', ...flags], ENV);
    cleanups.push(async () => {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    });
    return { proc, url: await proc.listening() };
  }

  async function stopServe(proc: ServeProcess): Promise<void> {
    proc.child.kill('SIGTERM');
    expect(await proc.exited(), proc.stderr()).toBe(0);
  }

  const works = async (url: string, key: OwnerKey | null) => {
    expect(key).not.toBeNull();
    expect((await call({ url }, 'GET', '/api/v0/stats', { key })).status).toBe(200);
  };

  it('desktop, then serve, then the desktop again: the keychain key throughout, no key file ever written', async () => {
    const dataDir = await folder();
    const first = await desktop(dataDir);
    const record = recordOf(dataDir);
    expect(record).toMatchObject({ home: 'keychain', keychain: { service: SERVICE } });
    const namespace = record.keychain?.namespace as string;
    expect(await item(`${namespace}/secret:master`).getPassword()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const owner = first.ownerKey();
    await works(first.url(), owner);
    expect(JSON.parse((await item(`${namespace}/owner-key`).getPassword()) as string)).toEqual(owner);
    await first.supervisor.stop();

    const { proc, url } = await serve(dataDir);
    expect(proc.stdout()).not.toContain('Owner access key written');
    expect(proc.stderr()).toContain('pinfold secrets move --to file');
    await works(url, owner);
    await stopServe(proc);
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);

    const again = await desktop(dataDir);
    expect(again.ownerKey()).toEqual(owner);
    await works(again.url(), owner);
  });

  it("serve, then the desktop: the desktop uses the folder's files and writes nothing to the keychain", async () => {
    const dataDir = await folder();
    const { proc, url } = await serve(dataDir);
    const owner = JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as OwnerKey;
    await works(url, owner);
    await stopServe(proc);
    const before = folderSnapshot(dataDir);

    const app = await desktop(dataDir);
    expect(app.ownerKey()).toEqual(owner);
    await works(app.url(), owner);
    expect(recordOf(dataDir)).toEqual({ version: 1, home: 'file' });
    expect(folderSnapshot(dataDir)['master.key']).toBe(before['master.key']);
    expect(folderSnapshot(dataDir)['owner-key.json']).toBe(before['owner-key.json']);
  });

  it("serve --keychain keeps a new folder's keys in the keychain; secrets move takes them to files and back", async () => {
    const dataDir = await folder();
    const started = await serve(dataDir, '--keychain');
    expect(started.proc.stdout()).toMatch(/Owner access key written to the OS keychain \(service "Pinfold-test-[^"]+", item "folder-[0-9a-f-]+\/owner-key"\)/);
    const owner = (await locateOwnerKey(dataDir, osKeychainEntry)).key;
    await works(started.url, owner);
    await stopServe(started.proc);
    const keychainNamespace = recordOf(dataDir).keychain?.namespace as string;

    const toFile = await runCli(['secrets', 'move', '--to', 'file', '--data', dataDir], ENV);
    expect(toFile.stderr).toBe('');
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toContain(`from the OS keychain (service "${SERVICE}", items "${keychainNamespace}/…") to files in ${dataDir}`);
    expect(recordOf(dataDir)).toEqual({ version: 1, home: 'file' });
    expect(JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8'))).toEqual(owner);
    expect(await item(`${keychainNamespace}/secret:master`).getPassword()).toBeNull();
    expect(await item(`${keychainNamespace}/owner-key`).getPassword()).toBeNull();
    const onFiles = await serve(dataDir);
    await works(onFiles.url, owner);
    await stopServe(onFiles.proc);

    const toKeychain = await runCli(['secrets', 'move', '--to', 'keychain', '--data', dataDir], ENV);
    expect(toKeychain.code, toKeychain.stderr).toBe(0);
    expect(recordOf(dataDir).home).toBe('keychain');
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    expect((await runCli(['secrets', 'where', '--data', dataDir], ENV)).stdout).toMatch(/^the OS keychain \(service "Pinfold-test-/);
    const again = await runCli(['secrets', 'move', '--to', 'keychain', '--data', dataDir], ENV);
    expect(again.stdout).toContain('already in the OS keychain');
    const onKeychain = await serve(dataDir);
    await works(onKeychain.url, owner);
  });

  it('a move beside a running server is refused and changes nothing', async () => {
    const dataDir = await folder();
    const { proc, url } = await serve(dataDir);
    const before = folderSnapshot(dataDir);
    const moved = await runCli(['secrets', 'move', '--to', 'keychain', '--data', dataDir], ENV);
    expect(moved.code).toBe(1);
    expect(moved.stderr).toMatch(
      /another Pinfold server \(pid \d+\) is already using the data folder .*: stop it \(or quit the desktop app\) before moving its secrets; nothing was moved/,
    );
    expect(folderSnapshot(dataDir)).toEqual(before);
    await works(url, JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as OwnerKey);
    await stopServe(proc);
  });

  it('a missing keychain entry: serve and the desktop refuse with a clear message, and nothing is written', async () => {
    const dataDir = await folder();
    const { proc } = await serve(dataDir, '--keychain');
    await stopServe(proc);
    const namespace = recordOf(dataDir).keychain?.namespace as string;
    await item(`${namespace}/secret:master`).deletePassword();
    const before = folderSnapshot(dataDir);

    const refused = startServe(['--data', dataDir, '--port', '0', '--keychain'], ENV);
    expect(await refused.exited()).toBe(1);
    expect(refused.stderr()).toContain(`the master key of ${dataDir} should be in the OS keychain`);
    expect(refused.stderr()).toContain('but is not there');
    const launcher = nodeServiceLauncher([], ENV);
    const app = createDesktopService({ config: { dataDir, port: 0 }, launch: (args, env) => launcher.launch(args, env), keychain });
    cleanups.push(() => app.supervisor.stop());
    app.supervisor.start();
    const crashed = await waitForStatus(app, (s) => s.state === 'crashed');
    expect(crashed.detail).toContain('but is not there');
    expect(launcher.processes).toHaveLength(1);
    expect(folderSnapshot(dataDir)).toEqual(before);
    expect(await item(`${namespace}/secret:master`).getPassword()).toBeNull();
  });

  it('the CLI beside a desktop-mode service reads the owner key from the keychain: sync add, sync list, gc, open', async () => {
    const dataDir = await folder();
    const app = await desktop(dataDir);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    const synced = join(await folder(), 'site');
    mkdirSync(synced);
    writeFileSync(join(synced, 'index.html'), '<h1>hello</h1>');
    const env = { ...ENV, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '' };

    const add = await runCli(['sync', 'add', synced, '--no-ipns', '--data', dataDir], env);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/^id \S+\nroot b\S+\n/m);
    const list = await runCli(['sync', 'list', '--json', '--data', dataDir], env);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { path: string }[]).map((row) => row.path)).toEqual([synced]);
    const gc = await runCli(['gc', '--data', dataDir], env);
    expect(gc.code, gc.stderr).toBe(0);
    expect(gc.stdout).toContain(`garbage collection (server at ${app.url()})`);
    const open = await runCli(['open', '--no-browser', '--data', dataDir], env);
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toMatch(new RegExp(`^${app.url()}/signin\\?code=`));
  });
});
