import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkSettingsView } from '../../shared/api-types.js';
import { createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey } from '../helpers/account-api.js';

/** Saved in the data folder before the start: local endpoints, offline (tests never reach the internet). */
const SAVED = { fetch_from: ['http://127.0.0.1:7'], routing: ['http://127.0.0.1:6'], offline: true };

let server: TestServer;
let dataDir: string;
beforeEach(async () => {
  dataDir = await makeTempDir();
  await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, network: SAVED }));
  // Only --routing on the command line: the rest comes from settings.json.
  server = await startTestServer({ dataDir, network: { routing: ['http://127.0.0.1:9'] } }, {}, undefined, { networkAsGiven: true });
});
afterEach(async () => {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const view = async () => (await call<{ data: NetworkSettingsView }>(server, 'GET', '/api/v0/settings/network', { key: server.owner })).json.data;

describe('GET|POST /api/v0/settings/network', () => {
  it('shows the settings in use and what the command line pins', async () => {
    expect(await view()).toEqual({
      fetch_from: ['http://127.0.0.1:7'],
      routing: ['http://127.0.0.1:9'],
      offline: true,
      saved: SAVED,
      pinned: { fetch_from: false, routing: true, offline: false },
    });
  });

  it('saves a change in the data folder and applies it at once', async () => {
    const answer = await call<{ data: NetworkSettingsView }>(server, 'POST', '/api/v0/settings/network', {
      key: server.owner,
      body: { fetch_from: ['http://127.0.0.1:8/'], offline: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toMatchObject({ fetch_from: ['http://127.0.0.1:8'], offline: false, pinned: { routing: true } });
    expect(await view()).toMatchObject({ fetch_from: ['http://127.0.0.1:8'], offline: false });
    expect(JSON.parse(await readFile(join(server.dataDir, 'settings.json'), 'utf8'))).toMatchObject({ version: 1, network: { offline: false } });
  });

  it('refuses a bad value with 400 naming it, and changes nothing', async () => {
    const before = await view();
    // The field at fault is named beside the message too (param), for the Settings page to show it there.
    const badUrl = expectError(
      await call(server, 'POST', '/api/v0/settings/network', { key: server.owner, body: { fetch_from: ['ftp://x'] } }),
      400,
      /fetch_from/,
    );
    expect(badUrl.param).toBe('fetch_from');
    const badSwitch = expectError(await call(server, 'POST', '/api/v0/settings/network', { key: server.owner, body: { offline: 1 } }), 400, /offline/);
    expect(badSwitch.param).toBe('offline');
    const unknownKey = expectError(
      await call(server, 'POST', '/api/v0/settings/network', { key: server.owner, body: { gateways: [] } }),
      400,
      /^body: unknown setting "gateways"$/,
    );
    expect(unknownKey.param).toBe('gateways');
    expectError(await call(server, 'POST', '/api/v0/settings/network', { key: server.owner, body: '[1,2' }), 400, /JSON/);
    expect(await view()).toEqual(before);
    expect(JSON.parse(await readFile(join(server.dataDir, 'settings.json'), 'utf8'))).toEqual({ version: 1, network: SAVED });
  });

  it('is the owner admin keys only', async () => {
    const partner = await createKey(server, server.owner, 'partner admin', ['admin']);
    await createUser(server, partner, 'user-settings');
    const userKey = await createUserKey(server, partner, 'user-settings', 'k', ['admin']);
    expectError(await call(server, 'GET', '/api/v0/settings/network', { key: userKey }), 403, /owner/);
    expectError(await call(server, 'POST', '/api/v0/settings/network', { key: userKey, body: { offline: true } }), 403, /owner/);
    const reader = await createKey(server, server.owner, 'reader', ['read']);
    expectError(await call(server, 'GET', '/api/v0/settings/network', { key: reader }), 403, /admin/);
    expect((await view()).offline).toBe(true);
  });
});
