/**
 * `GET|POST /api/v0/settings` over a real app and its data folder's settings.json (docs/settings.md): every
 * setting with what pins it, changes saved and applied at once (GC's interval and grace, the CID profile,
 * the theme) or at the next start (the port, the public gateway), flags winning, bad values changing
 * nothing, changes made together all kept, and a broken file stopping the start.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { SettingsFileError } from '../../main/base/settings-file.js';
import type { ServiceFacts, SettingsView } from '../../shared/api-types.js';
import { SettingsViewSchema } from '../../shared/schemas/settings.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { freePort } from '../helpers/engines/processes.js';
import { ownerKeyOf } from '../helpers/owner-key.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { testConfig } from '../helpers/test-network.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { is } from 'valibot';
import { pinAdd } from './gc-helpers.js';
import { randomData, uploadCid } from './uploads-helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const started = await startTestServer(overrides);
  cleanups.push(() => started.stop());
  return started;
}

async function dataFolder(settings?: unknown): Promise<string> {
  const dir = await makeTempDir('pinfold-settings-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  if (settings !== undefined) await writeFile(join(dir, 'settings.json'), JSON.stringify(settings));
  return dir;
}

const view = async (target: TestServer): Promise<SettingsView> => {
  const answer = await call<{ data: SettingsView }>(target, 'GET', '/api/v0/settings', { key: target.owner });
  expect(answer.status).toBe(200);
  expect(is(SettingsViewSchema, answer.json.data), 'the answer has the documented shape').toBe(true);
  return answer.json.data;
};

const change = (target: TestServer, body: unknown) => call<{ data: SettingsView }>(target, 'POST', '/api/v0/settings', { key: target.owner, body });

const settingsFile = (target: { dataDir: string }): string => join(target.dataDir, 'settings.json');

describe('GET|POST /api/v0/settings', () => {
  it('shows every setting as in use, saved and by default, which flag pins it and how a change applies', async () => {
    const dataDir = await dataFolder({ version: 1, gc: { gc_grace_seconds: 30 }, window: { theme: 'dark' } });
    const target = await server({ dataDir, gcIntervalSeconds: 1234 });
    const { settings, restart_required } = await view(target);
    expect(restart_required).toBe(false);
    expect(settings.gc_interval_seconds).toEqual({
      value: 1234,
      saved: 3600,
      default: 3600,
      pinned_by: '--gc-interval',
      applies: 'now',
      restart_required: false,
    });
    expect(settings.gc_grace_seconds).toEqual({ value: 30, saved: 30, default: 600, pinned_by: null, applies: 'now', restart_required: false });
    expect(settings.theme).toEqual({ value: 'dark', saved: 'dark', default: 'system', pinned_by: null, applies: 'now', restart_required: false });
    // The test server runs on --port 0 and offline (tests never reach the internet): both pinned.
    expect(settings.port).toMatchObject({ value: 0, saved: 5080, pinned_by: '--port', applies: 'restart', restart_required: false });
    expect(settings.offline).toMatchObject({ value: true, saved: false, pinned_by: '--offline' });
    expect(settings.cid_profile).toMatchObject({ value: 'unixfs-v1-2025', pinned_by: null, applies: 'now' });
    expect(settings.public_gateway).toMatchObject({ value: false, pinned_by: null, applies: 'restart' });
    expect(settings.launch_at_login).toEqual({ value: null, saved: null, default: null, pinned_by: null, applies: 'desktop', restart_required: false });
  });

  it('saves a change in settings.json, applies it at once, and a flag still wins for this run', async () => {
    const dataDir = await dataFolder({ version: 1, elsewhere: { kept: true } });
    const target = await server({ dataDir, gcIntervalSeconds: 1234 });
    const answer = await change(target, { gc_interval_seconds: 60, gc_grace_seconds: 5, theme: 'light', launch_at_login: true, cid_profile: 'unixfs-v0-2015' });
    expect(answer.status).toBe(200);
    const { settings } = answer.json.data;
    expect(settings.gc_interval_seconds).toMatchObject({ value: 1234, saved: 60, pinned_by: '--gc-interval' });
    expect(settings.gc_grace_seconds).toMatchObject({ value: 5, saved: 5 });
    expect(settings.theme.value).toBe('light');
    expect(settings.launch_at_login.value).toBe(true);
    expect(await view(target)).toEqual(answer.json.data);
    // The service facts and the upload settings say what is in use.
    const facts = (await call<{ data: ServiceFacts }>(target, 'GET', '/api/v0/service', { key: target.owner })).json.data;
    expect(facts).toMatchObject({ gc_interval_seconds: 1234, gc_grace_seconds: 5, cid_profile: 'unixfs-v0-2015' });
    const upload = await call<{ data: { cid_profile: string } }>(target, 'GET', '/api/v0/upload/settings', { key: target.owner });
    expect(upload.json.data.cid_profile).toBe('unixfs-v0-2015');
    // Only what was chosen is written, in its section; a section Pinfold does not know stays as it was.
    expect(JSON.parse(await readFile(settingsFile(target), 'utf8'))).toEqual({
      version: 1,
      elsewhere: { kept: true },
      content: { cid_profile: 'unixfs-v0-2015' },
      gc: { gc_interval_seconds: 60, gc_grace_seconds: 5 },
      desktop: { launch_at_login: true },
      window: { theme: 'light' },
    });
  });

  it('the next upload takes a new CID profile', async () => {
    const target = await server();
    const bytes = randomData(2000);
    expect(await uploadCid(target, target.owner, bytes)).toMatch(/^bafk/);
    expect((await change(target, { cid_profile: 'unixfs-v0-2015' })).status).toBe(200);
    expect(await uploadCid(target, target.owner, bytes)).toMatch(/^Qm/);
  });

  it('the periodic garbage collection takes a new interval at once', async () => {
    // Default interval (an hour): no cycle runs in this test unless the change applies.
    const target = await server();
    const cid = await uploadCid(target, target.owner, randomData(1500));
    expect(await pinAdd(target, target.owner, cid)).toBe(200);
    expect((await call(target, 'POST', '/api/v0/pin/rm', { key: target.owner, query: { arg: cid } })).status).toBe(200);
    const pinStatus = async () => (await call(target, 'GET', `/api/v0/pin/${cid}`, { key: target.owner })).status;
    expect(await pinStatus()).toBe(200);
    expect((await change(target, { gc_interval_seconds: 1 })).json.data.settings.gc_interval_seconds.value).toBe(1);
    // An unpinning pin is gone once a cycle ran.
    await until('a garbage collection at the new interval', async () => ((await pinStatus()) === 404 ? true : undefined), 15_000, 100);
  });

  it('refuses a bad value with 400 naming the setting, and changes nothing: neither the file nor what is in use', async () => {
    const dataDir = await dataFolder({ version: 1, gc: { gc_grace_seconds: 30 }, window: { theme: 'dark' } });
    const target = await server({ dataDir });
    const fileBefore = await readFile(settingsFile(target), 'utf8');
    const before = await view(target);
    const refusals: Array<[unknown, RegExp, string | undefined]> = [
      [{ colour: 'red' }, /^body: unknown setting "colour"$/, 'colour'],
      [{ theme: 'dark', port: 70000 }, /^port: a whole number from 0 to 65535 is required$/, 'port'],
      [{ port: '6000' }, /^port: /, 'port'],
      [{ gc_interval_seconds: 0 }, /^gc_interval_seconds: a whole number of seconds from 1 to \d+ is required$/, 'gc_interval_seconds'],
      [{ gc_grace_seconds: 1.5 }, /^gc_grace_seconds: /, 'gc_grace_seconds'],
      [{ fetch_from: ['ftp://gw.example'] }, /^fetch_from: "ftp:\/\/gw\.example" is not an http or https URL$/, 'fetch_from'],
      [{ public_gateway: 'yes' }, /^public_gateway: true or false is required$/, 'public_gateway'],
      [{ cid_profile: 'unixfs-v2' }, /^cid_profile: one of unixfs-v1-2025, unixfs-v0-2015 is required$/, 'cid_profile'],
      [{ theme: 'blue', gc_grace_seconds: 0 }, /^theme: one of system, light, dark is required$/, 'theme'],
      [{ launch_at_login: null }, /^launch_at_login: true or false is required$/, 'launch_at_login'],
      ['{"theme":', /JSON/, undefined],
      [[{ theme: 'light' }], /JSON object/, undefined],
    ];
    for (const [body, message, param] of refusals) {
      const envelope = expectError(await change(target, body), 400, message, 'bad_input');
      expect(envelope.param, JSON.stringify(body)).toBe(param);
    }
    expect(await readFile(settingsFile(target), 'utf8')).toBe(fileBefore);
    expect(await view(target)).toEqual(before);
  });

  it('keeps every one of many changes sent at once', async () => {
    const target = await server();
    const changes = [
      { theme: 'dark' },
      { gc_grace_seconds: 7 },
      { cid_profile: 'unixfs-v0-2015' },
      { launch_at_login: false },
      { public_gateway: true },
      { gc_interval_seconds: 99 },
      { routing: ['http://127.0.0.1:9'] },
    ];
    const answers = await Promise.all(changes.map((body) => change(target, body)));
    expect(answers.map((answer) => answer.status)).toEqual(changes.map(() => 200));
    const saved = JSON.parse(await readFile(settingsFile(target), 'utf8')) as Record<string, Record<string, unknown>>;
    const { settings } = await view(target);
    for (const body of changes)
      for (const [name, value] of Object.entries(body)) {
        expect(settings[name as keyof typeof settings].saved, name).toEqual(value);
        expect(
          Object.values(saved).some((section) => JSON.stringify(section[name]) === JSON.stringify(value)),
          name,
        ).toBe(true);
      }
  });

  it('is the owner admin keys only', async () => {
    const target = await server();
    const partner = await createKey(target, target.owner, 'partner admin', ['admin']);
    await createUser(target, partner, 'user-of-settings');
    const userKey = await createUserKey(target, partner, 'user-of-settings', 'k', ['admin']);
    expectError(await call(target, 'GET', '/api/v0/settings', { key: userKey }), 403, /owner/, 'permission');
    expectError(await call(target, 'POST', '/api/v0/settings', { key: userKey, body: { theme: 'dark' } }), 403, /owner/, 'permission');
    const reader = await createKey(target, target.owner, 'reader', ['read']);
    expectError(await call(target, 'GET', '/api/v0/settings', { key: reader }), 403, /admin/, 'permission');
    expect((await view(target)).settings.theme.value).toBe('system');
  });
});

describe('settings that apply at the next start', () => {
  /** An app on `dataDir` as `pinfold serve` starts it with no flag of a setting but --offline (tests stay offline). */
  async function startApp(dataDir: string): Promise<{ app: PinfoldApp; target: TestServer }> {
    const app = await createApp({ config: testConfig({ dataDir, ...(await suiteDatabase(dataDir)) }) });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await app.close();
    };
    cleanups.push(close);
    const url = await app.listen();
    return { app, target: { url, owner: ownerKeyOf(app), dataDir, app, stop: close } };
  }

  it('a new port and a public gateway wait for a restart, said so; the next start on the folder uses them', async () => {
    // Saved port 0: this start listens on a free port, as the settings say, pinning nothing.
    const dataDir = await dataFolder({ version: 1, server: { port: 0 } });
    const first = await startApp(dataDir);
    const cid = await uploadCid(first.target, first.target.owner, randomData(1000));
    expect(await pinAdd(first.target, first.target.owner, cid)).toBe(200);
    const port = await freePort();
    const answer = await change(first.target, { port, public_gateway: true });
    expect(answer.json.data.restart_required).toBe(true);
    expect(answer.json.data.settings.port).toMatchObject({ value: 0, saved: port, pinned_by: null, restart_required: true });
    expect(answer.json.data.settings.public_gateway).toMatchObject({ value: false, saved: true, restart_required: true });
    // Not public yet: a request without a key (nor ts) is refused.
    expect((await fetch(`${first.target.url}/ipfs/${cid}`)).status).toBe(400);
    await first.target.stop();

    const second = await startApp(dataDir);
    expect(second.target.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${second.target.url}/ipfs/${cid}`)).status).toBe(200);
    const { settings, restart_required } = await view(second.target);
    expect(restart_required).toBe(false);
    expect(settings.port).toMatchObject({ value: port, saved: port, restart_required: false });
    expect(settings.public_gateway).toMatchObject({ value: true, restart_required: false });
  });

  it('a settings.json with a bad value stops the start with a message naming the file and the setting, and changes nothing', async () => {
    const content = JSON.stringify({ version: 1, gc: { gc_interval_seconds: 0 } });
    const dataDir = await dataFolder();
    await writeFile(join(dataDir, 'settings.json'), content);
    const path = join(dataDir, 'settings.json');
    const start = createApp({ config: testConfig({ dataDir, port: 0, ...(await suiteDatabase(dataDir)) }) });
    await expect(start).rejects.toThrow(SettingsFileError);
    await expect(start).rejects.toThrow(`${path}: gc_interval_seconds: a whole number of seconds from 1 to`);
    expect(await readFile(path, 'utf8')).toBe(content);
    await writeFile(path, JSON.stringify({ version: 1, gc: { interval: 60 } }));
    await expect(createApp({ config: testConfig({ dataDir, port: 0, ...(await suiteDatabase(dataDir)) }) })).rejects.toThrow(
      `${path}: gc: unknown setting "interval"`,
    );
  });
});
