import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, nowTs } from '../helpers/test-server.js';
import { runCli } from '../helpers/account-api.js';
import { LISTENING, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { addressFor, step2, type Key } from './uploads-helpers.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { deadPid } from '../helpers/dead-pid.js';

describe('pinfold serve', () => {
  const running: ServeProcess[] = [];
  const dirs = tempDirs('pinfold-serve-');
  afterEach(async () => {
    for (const proc of running.splice(0)) {
      if (proc.child.exitCode === null && proc.child.signalCode === null) {
        proc.child.kill('SIGKILL');
        await proc.exited();
      }
    }
    await dirs.removeAll();
  });

  it('first start: listening line, 0600 owner-key.json whose path is printed, the key works; a second serve on the folder is refused; SIGTERM exits 0 and frees the lock', async () => {
    const dataDir = await dirs.make();
    const first = startServe(['--data', dataDir, '--port', '0']);
    running.push(first);
    const url = await first.listening();
    const keyPath = join(dataDir, 'owner-key.json');
    expect(first.stdout()).toContain(`Owner access key written to ${keyPath}`);
    expect(first.stdout().indexOf('Owner access key')).toBeLessThan(first.stdout().indexOf('Pinfold listening'));
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    const owner = JSON.parse(readFileSync(keyPath, 'utf8')) as { access_key: string; access_secret: string };
    expect(Object.keys(owner).sort()).toEqual(['access_key', 'access_secret']);
    const stats = await call<{ data: { plan: string; token_amount: string } }>({ url }, 'GET', '/api/v0/stats', { key: owner });
    expect(stats.status).toBe(200);
    expect(stats.json.data).toMatchObject({ plan: 'Local', token_amount: '1000.00' });
    expect(first.stdout() + first.stderr()).not.toContain(owner.access_secret);
    expect(readFileSync(join(dataDir, 'pinfold.lock'), 'utf8')).toBe(String(first.child.pid));

    const second = startServe(['--data', dataDir, '--port', '0']);
    running.push(second);
    const code = await second.exited();
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(second.stderr()).toContain(dataDir);
    expect(second.stderr()).toMatch(/another Pinfold server \(pid \d+\) is already using the data folder/);
    expect(second.stdout()).not.toMatch(LISTENING);
    // The first one is untouched.
    expect((await call({ url }, 'GET', '/api/v0/stats', { key: owner })).status).toBe(200);
    expect(readFileSync(join(dataDir, 'pinfold.lock'), 'utf8')).toBe(String(first.child.pid));

    first.child.kill('SIGTERM');
    expect(await first.exited()).toBe(0);
    expect(existsSync(join(dataDir, 'pinfold.lock'))).toBe(false);
    await expect(call({ url }, 'GET', '/api/v0/stats', { key: owner })).rejects.toThrow();

    // A restart keeps the owner key and does not announce a new one.
    const third = startServe(['--data', dataDir, '--port', '0']);
    running.push(third);
    const url3 = await third.listening();
    expect(third.stdout()).not.toContain('Owner access key written');
    expect((await call({ url: url3 }, 'GET', '/api/v0/stats', { key: owner })).status).toBe(200);
    third.child.kill('SIGINT');
    expect(await third.exited()).toBe(0);
    expect(existsSync(join(dataDir, 'pinfold.lock'))).toBe(false);
  });

  it('takes over a lock left by a dead process', async () => {
    const dataDir = await dirs.make();
    const stalePid = deadPid();
    writeFileSync(join(dataDir, 'pinfold.lock'), String(stalePid));
    const proc = startServe(['--data', dataDir, '--port', '0']);
    running.push(proc);
    await proc.listening();
    expect(readFileSync(join(dataDir, 'pinfold.lock'), 'utf8')).toBe(String(proc.child.pid));
    proc.child.kill('SIGTERM');
    expect(await proc.exited(), proc.stderr()).toBe(0);
  });

  it('a port already in use fails the start with exit 1, a one-line message, and no lock left behind', async () => {
    const dataDir = await dirs.make();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (busy.address() as { port: number }).port;
      const result = await runCli(['serve', '--data', dataDir, '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`pinfold: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`);
      expect(existsSync(join(dataDir, 'pinfold.lock'))).toBe(false);
    } finally {
      busy.close();
    }
  });

  it('an unknown flag exits 2 with the usage', async () => {
    const dataDir = await dirs.make();
    const result = await runCli(['serve', '--data', dataDir, '--bogus', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('serve does not take --bogus');
    expect(result.stderr).toContain('Usage: pinfold');
    const badPort = await runCli(['serve', '--data', dataDir, '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port');
  });

  it('PINFOLD_OWNER_KEY and PINFOLD_OWNER_SECRET set the owner key; --ts-window is honoured', async () => {
    const dataDir = await dirs.make();
    const owner = { access_key: '0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e', access_secret: Buffer.alloc(48, 9).toString('base64url') };
    const proc = startServe(['--data', dataDir, '--port', '0', '--ts-window', '5'], {
      PINFOLD_OWNER_KEY: owner.access_key,
      PINFOLD_OWNER_SECRET: owner.access_secret,
    });
    running.push(proc);
    const url = await proc.listening();
    expect((await call({ url }, 'GET', '/api/v0/stats', { key: owner })).status).toBe(200);
    expect((await call({ url }, 'GET', '/api/v0/stats', { key: owner, signed: true })).status).toBe(200);
    expect(existsSync(join(dataDir, 'owner-key.json'))).toBe(false);
    expect(proc.stdout() + proc.stderr()).not.toContain(owner.access_secret);
    const stale = await call({ url }, 'GET', '/api/v0/stats', { key: owner, noTs: true, query: { ts: nowTs() - 100 } });
    expect(stale.status).toBe(401);
    proc.child.kill('SIGTERM');
    expect(await proc.exited()).toBe(0);
  });

  it('with --host 0.0.0.0, server.json holds a reachable address: pinfold gc and pinfold sync list beside it reach the server', async () => {
    const dataDir = await dirs.make();
    const proc = startServe(['--data', dataDir, '--port', '0', '--host', '0.0.0.0']);
    running.push(proc);
    const url = await proc.listening(30_000, /Pinfold listening on (http:\/\/\S+)\n/);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const serverFile = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string; pid: number };
    expect(serverFile).toEqual({ url, pid: proc.child.pid });
    expect(statSync(join(dataDir, 'server.json')).mode & 0o777).toBe(0o600);

    const gc = await runCli(['gc', '--data', dataDir]);
    expect(gc.stderr).toBe('');
    expect(gc.stdout).toContain(`garbage collection (server at ${url})`);
    expect(gc.code).toBe(0);
    const list = await runCli(['sync', 'list', '--data', dataDir]);
    expect(list.stderr).toBe('');
    expect(list.stdout).toBe('no sync folders\n');
    expect(list.code).toBe(0);

    proc.child.kill('SIGTERM');
    expect(await proc.exited()).toBe(0);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    const none = await runCli(['sync', 'list', '--data', dataDir]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no running server found');
  });

  it.each([
    ['127.0.0.1', /^http:\/\/127\.0\.0\.1:\d+$/],
    ['0.0.0.0', /^http:\/\/127\.0\.0\.1:\d+$/],
    ['::1', /^http:\/\/\[::1\]:\d+$/],
    ['localhost', /^http:\/\/localhost:\d+$/],
  ])('--host %s: the printed line, server.json and the upload addresses name one URL, and it reaches the server', async (host, shape) => {
    const dataDir = await dirs.make();
    const proc = startServe(['--data', dataDir, '--port', '0', '--host', host]);
    running.push(proc);
    const url = await proc.listening(30_000, /Pinfold listening on (http:\/\/\S+)\n/);
    expect(url).toMatch(shape);
    expect((JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string }).url).toBe(url);
    const owner = JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8')) as Key;
    const address = await addressFor({ url }, owner, 'POST', '/ipfs/', { size: 5 });
    expect(address.startsWith(`${url}/ipfs/?sargs=`), address).toBe(true);
    const uploaded = await step2(address, 'POST', new TextEncoder().encode('hello'));
    expect(uploaded.status, uploaded.text).toBe(201);
    proc.child.kill('SIGTERM');
    expect(await proc.exited()).toBe(0);
  });

  it('half an explicit owner key fails the start with a clear message', async () => {
    const dataDir = await dirs.make();
    const result = await runCli(['serve', '--data', dataDir, '--port', '0'], {
      PINFOLD_OWNER_KEY: '0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e',
      PINFOLD_OWNER_SECRET: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PINFOLD_OWNER_KEY and PINFOLD_OWNER_SECRET must be set together');
    expect(existsSync(join(dataDir, 'pinfold.lock'))).toBe(false);
  });
});
