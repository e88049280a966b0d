import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SyncAddResultSchema,
  SyncDiscardResultSchema,
  SyncFolderDetailSchema,
  SyncFolderViewSchema,
  SyncRetentionSchema,
} from '../../shared/schemas/sync-folders.js';
import { SyncRestoreResultSchema, SyncVersionDiffSchema, SyncVersionDirectorySchema, SyncVersionSchema } from '../../shared/schemas/sync-versions.js';
import { openEvents, type EventReader } from '../helpers/event-stream-reader.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { dataOf, heldEvents, rowsOf } from './response-shapes-helpers.js';
import { converged, put } from './sync-helpers.js';

/**
 * Issue 25, item 5: the sync folders' answers the window reads (SQLite only, as sync is), from a real
 * service with a synced folder of two versions and a followed one with a local change, each held to the
 * schema the window checks it with (shared/schemas/), and the `sync` events on the way.
 */
describe('the sync answers the window reads fit its schemas', () => {
  let server: TestServer;
  let events: EventReader;
  const temps = tempDirs('pinfold-sync-shapes-');
  const oldDataHome = process.env['XDG_DATA_HOME'];
  let source = '';
  let id = '';
  let ipnsName = '';

  beforeAll(async () => {
    // A discard moves files to the trash: the test's own, not the user's.
    process.env['XDG_DATA_HOME'] = await temps.make();
    server = await startTestServer({}, {}, undefined, { followTiming: { pollMs: 100, errorRetryMs: 100, maxRetryMs: 400 } });
    events = await openEvents(server, server.owner);
  });
  afterAll(async () => {
    events?.close();
    await server?.stop();
    if (oldDataHome === undefined) delete process.env['XDG_DATA_HOME'];
    else process.env['XDG_DATA_HOME'] = oldDataHome;
    await temps.removeAll();
  });

  const owner = () => ({ key: server.owner });

  it('a synced folder: added (waiting and not), listed, its detail', async () => {
    source = await temps.make();
    await put(source, 'a.txt', 'alpha');
    await put(source, 'docs/b.md', 'beta');
    const added = dataOf(await call(server, 'POST', '/api/v0/sync/add', { ...owner(), body: { path: source } }), SyncAddResultSchema, 'an added folder');
    ({ id, ipns_name: ipnsName } = added);
    await converged(server, server.owner, id, source);
    const early = await call(server, 'POST', '/api/v0/sync/add', { ...owner(), body: { path: await temps.make() }, query: { wait: false } });
    expect(dataOf(early, SyncAddResultSchema, 'a folder added without waiting').state).toBeDefined();
    rowsOf(await call(server, 'GET', '/api/v0/sync', owner()), SyncFolderViewSchema, 'the sync folders');
    const detail = dataOf(await call(server, 'GET', '/api/v0/sync/detail', { ...owner(), query: { id } }), SyncFolderDetailSchema, 'a folder');
    expect(detail.batches.length).toBeGreaterThan(0);
  });

  it('its versions: listed, compared, a directory of one, a file restored, the retention set', async () => {
    await put(source, 'a.txt', 'alpha 2');
    await put(source, 'docs/c.md', 'gamma');
    await converged(server, server.owner, id, source);
    const versions = rowsOf(await call(server, 'GET', '/api/v0/sync/versions', { ...owner(), query: { id } }), SyncVersionSchema, 'the versions');
    const [newer, older] = versions.map((version) => version.root);
    expect(older).toBeDefined();
    const diff = dataOf(
      await call(server, 'GET', '/api/v0/sync/diff', { ...owner(), query: { id, from: older ?? '', to: newer ?? '' } }),
      SyncVersionDiffSchema,
      'the difference',
    );
    expect(diff.added).toEqual(['docs/c.md']);
    const tree = await call(server, 'GET', '/api/v0/sync/tree', { ...owner(), query: { id, root: older ?? '', path: '' } });
    expect(dataOf(tree, SyncVersionDirectorySchema, 'a directory of a version').entries.length).toBeGreaterThan(0);
    const restore = await call(server, 'POST', '/api/v0/sync/restore', { ...owner(), query: { id, root: older ?? '', path: 'a.txt', to: await temps.make() } });
    expect(dataOf(restore, SyncRestoreResultSchema, 'a restore').written).toHaveLength(1);
    const retention = await call(server, 'POST', '/api/v0/sync/retention', { ...owner(), query: { id }, body: { keep: 'all' } });
    dataOf(retention, SyncRetentionSchema, 'the retention');
  });

  it('a followed folder: its row, and a local change discarded', async () => {
    const mirror = path.join(await temps.make(), 'mirror');
    const followed = dataOf(
      await call(server, 'POST', '/api/v0/sync/follow', { ...owner(), body: { name: ipnsName, path: mirror } }),
      SyncFolderViewSchema,
      'a followed folder',
    );
    const listed = async () =>
      rowsOf(await call(server, 'GET', '/api/v0/sync', owner()), SyncFolderViewSchema, 'the sync folders').find((row) => row.id === followed.id);
    await until('the first copy', async () => {
      const row = await listed();
      return row !== undefined && row.root !== '' && row.state === 'idle' ? row : undefined;
    });
    await writeFile(path.join(mirror, 'extra.txt'), 'added here');
    expect((await call(server, 'POST', '/api/v0/sync/rescan', { ...owner(), query: { id: followed.id } })).status).toBe(200);
    await until('the local change', async () => ((await listed())?.local_changes.length === 1 ? true : undefined));
    const discarded = await call(server, 'POST', '/api/v0/sync/discard', { ...owner(), query: { id: followed.id } });
    expect(dataOf(discarded, SyncDiscardResultSchema, 'a discard').trashed).toBe(1);
  });

  it('the sync events, rows and a removal', async () => {
    expect((await call(server, 'POST', '/api/v0/sync/rm', { ...owner(), query: { id } })).status).toBe(200);
    const received = await until('the removal', () =>
      events.pending().some((event) => event.event === 'sync' && (event.data as { removed?: unknown }).removed === true) ? events.pending() : undefined,
    );
    expect(heldEvents(received).sync).toBeGreaterThan(1);
  });
});
