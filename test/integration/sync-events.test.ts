import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncFolderView } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createUser, createUserKey } from '../helpers/account-api.js';
import { openEvents, type EventReader } from '../helpers/event-stream-reader.js';

/**
 * Issue 12, api12.md section 4: the sync events of GET /api/v0/events. Apart from events.test.ts because
 * sync folders are a desktop, single-instance feature, refused on PostgreSQL: the sync-* files run on
 * SQLite only (vitest.config.ts).
 */
describe('GET /api/v0/events: sync folders', () => {
  let server: TestServer;
  const readers: EventReader[] = [];
  const folders: string[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const reader of readers) reader.close();
    await server.stop();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  async function open(key = server.owner): Promise<EventReader> {
    const reader = await openEvents(server, key);
    readers.push(reader);
    return reader;
  }

  it("sync folders: the owner's stream follows a folder from add to rm; a partner user's stream gets no sync event", async () => {
    await createUser(server, server.owner, 'events-sync-user');
    const userKey = await createUserKey(server, server.owner, 'events-sync-user', 'admin', ['admin']);
    const theirs = await open(userKey);
    await theirs.next('usage');
    const mine = await open();
    await mine.next('usage');
    const folder = await mkdtemp(join(tmpdir(), 'pinfold-events-sync-'));
    folders.push(folder);
    await writeFile(join(folder, 'a.txt'), 'hello events');
    const added = await call<{ data: { id: string; root: string } }>(server, 'POST', '/api/v0/sync/add', {
      key: server.owner,
      body: { path: folder, ipns: false },
    });
    expect(added.status).toBe(200);
    const { id, root } = added.json.data;
    const settled = (await mine.next('sync', (row) => 'state' in row && row.id === id && row.root === root && row.state === 'idle')) as SyncFolderView;
    expect(settled).toMatchObject({ id, path: expect.any(String), root, files: 1, error: '' });
    const list = await call<{ data: SyncFolderView[] }>(server, 'GET', '/api/v0/sync', { key: server.owner });
    expect(Object.keys(settled).sort()).toEqual(Object.keys(list.json.data[0] ?? {}).sort());
    expect((await call(server, 'POST', '/api/v0/sync/rm', { key: server.owner, query: { id } })).status).toBe(200);
    expect(await mine.next('sync', (row) => 'removed' in row)).toEqual({ id, removed: true });

    const ownKey = await createUserKey(server, server.owner, 'events-sync-user', 'probe', ['read']);
    expect(await theirs.next()).toEqual({ access_key: ownKey.access_key });
  });
});
