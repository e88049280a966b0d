/**
 * renderer/data/live-cache.ts: the service's events applied to a real QueryClient, once for the window.
 * A pin that changed in place is patched where it is shown and nothing is loaded again; a change that
 * moves rows loads the page again, at once and then at most once per pause; `event: usage` replaces the
 * figures and asks for the days again after its own pause.
 */
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PinRecord, SyncFolderView, SyncVersion } from '../../../shared/api-types.js';
import type { PinListQuery } from '../../../renderer/api/pins.js';
import { DAILY_REFRESH_MS } from '../../../renderer/data/account.js';
import { connectLiveCache } from '../../../renderer/data/live-cache.js';
import { LIVE_RELOAD_PAUSE_MS } from '../../../renderer/data/live-reloads.js';
import type { PinListView } from '../../../renderer/data/pins.js';
import { createQueryClient } from '../../../renderer/data/query-client.js';
import { queryKeys } from '../../../renderer/data/query-keys.js';
import type { SyncFolderList, SyncFolderPage } from '../../../renderer/data/sync-folders.js';
import { createEventHub, type EventHub } from '../../../renderer/events/event-hub.js';
import { SYNC_FOLDER, SYNC_FOLDER_DETAIL, SYNC_VERSION, USAGE } from './fixtures.js';
import { manualTimers, type ManualTimers } from './event-stream-fakes.js';

const pin = (cid: string, patch: Partial<PinRecord> = {}): PinRecord => ({ name: cid, cid, status: 'pinned', size: 1, created_at: 1, ...patch });

let client: QueryClient;
let hub: EventHub;
let timers: ManualTimers;
let disconnect: () => void;
const stops: Array<() => void> = [];

beforeEach(() => {
  client = createQueryClient();
  hub = createEventHub();
  timers = manualTimers();
  disconnect = connectLiveCache(client, hub, timers);
});
afterEach(() => {
  disconnect();
  for (const stop of stops.splice(0)) stop();
  client.clear();
});

/** A page of the pin list someone shows (an observer keeps it active): it answers `pages` in turn and counts its loads. */
async function shownList(query: PinListQuery, ...pages: PinRecord[][]): Promise<{ key: QueryKey; loads: () => number }> {
  let loads = 0;
  const key = queryKeys.pins.list(query);
  const observer = new QueryObserver<PinListView>(client, {
    queryKey: key,
    queryFn: () => {
      const items = pages[Math.min(loads, pages.length - 1)] ?? [];
      loads += 1;
      return { items, total: items.length, query };
    },
  });
  stops.push(observer.subscribe(() => undefined));
  await vi.waitFor(() => expect(client.getQueryData(key)).toBeDefined());
  return { key, loads: () => loads };
}

const rows = (key: QueryKey) => client.getQueryData<PinListView>(key)?.items.map((row) => `${row.cid}:${row.status}:${row.name}`);
/** Lets the loads an event started settle. */
const settled = () => vi.waitFor(() => expect(client.isFetching()).toBe(0));

describe('live cache: event: pin', () => {
  it('patches a pin that changed where it is shown, and loads nothing again', async () => {
    const list = await shownList({}, [pin('a', { status: 'pinning' }), pin('b')]);
    hub.dispatch({ type: 'pin', payload: pin('a', { name: 'renamed' }) });
    expect(rows(list.key)).toEqual(['a:pinned:renamed', 'b:pinned:b']);
    await settled();
    expect(list.loads()).toBe(1);
  });

  it('loads a page again when rows move: a pin that left the filter is patched, then the page loads without it', async () => {
    const pinned = await shownList({ status: 'pinned' }, [pin('a'), pin('b')], [pin('b')]);
    hub.dispatch({ type: 'pin', payload: pin('a', { status: 'unpinning' }) });
    // Patched at once (the row says what it is now), then loaded again without it.
    expect(rows(pinned.key)).toEqual(['a:unpinning:a', 'b:pinned:b']);
    await settled();
    expect(pinned.loads()).toBe(2);
    expect(rows(pinned.key)).toEqual(['b:pinned:b']);
  });

  it('a burst of events costs one load at once and one at the end of the pause', async () => {
    const list = await shownList({}, [pin('a'), pin('b'), pin('c')], [pin('c')], []);
    hub.dispatch({ type: 'pin', payload: { cid: 'a', removed: true } });
    await settled();
    expect(list.loads()).toBe(2);
    hub.dispatch({ type: 'pin', payload: { cid: 'b', removed: true } });
    hub.dispatch({ type: 'pin', payload: { cid: 'c', removed: true } });
    expect(rows(list.key)).toEqual([]);
    await settled();
    expect(list.loads()).toBe(2);
    expect(timers.pending()).toEqual([LIVE_RELOAD_PAUSE_MS]);
    timers.runNext();
    await settled();
    expect(list.loads()).toBe(3);
  });

  it('changes nothing once disconnected (the session ended)', async () => {
    const list = await shownList({}, [pin('a')]);
    disconnect();
    hub.dispatch({ type: 'pin', payload: pin('a', { name: 'later' }) });
    expect(rows(list.key)).toEqual(['a:pinned:a']);
    expect(timers.pending()).toEqual([]);
  });
});

describe('live cache: event: usage', () => {
  it('replaces the figures, and asks for the days again once after a pause however many events come', async () => {
    client.setQueryData(queryKeys.account.usage(), USAGE);
    let dailyLoads = 0;
    const observer = new QueryObserver(client, {
      queryKey: queryKeys.account.daily(30),
      queryFn: () => {
        dailyLoads += 1;
        return [];
      },
    });
    stops.push(observer.subscribe(() => undefined));
    await vi.waitFor(() => expect(client.getQueryData(queryKeys.account.daily(30))).toEqual([]));

    hub.dispatch({ type: 'usage', payload: { ...USAGE, pinned_count: 7 } });
    hub.dispatch({ type: 'usage', payload: { ...USAGE, pinned_count: 8 } });
    expect(client.getQueryData(queryKeys.account.usage())).toEqual({ ...USAGE, pinned_count: 8 });
    expect(timers.pending()).toEqual([DAILY_REFRESH_MS]);
    expect(dailyLoads).toBe(1);
    timers.runNext();
    await settled();
    expect(dailyLoads).toBe(2);
  });
});

describe('live cache: the reloads of one event', () => {
  it('load together at once: a pin that moved from one filtered page to another loads both', async () => {
    const pinned = await shownList({ status: 'pinned' }, [pin('a'), pin('b')], [pin('b')]);
    const unpinning = await shownList({ status: 'unpinning' }, [], [pin('a', { status: 'unpinning' })]);
    hub.dispatch({ type: 'pin', payload: pin('a', { status: 'unpinning' }) });
    await settled();
    expect(pinned.loads()).toBe(2);
    expect(unpinning.loads()).toBe(2);
    expect(rows(unpinning.key)).toEqual(['a:unpinning:a']);
  });
});

/** A query someone shows, answering `answers` in turn: its loads counted. */
async function shown<T>(key: QueryKey, ...answers: T[]): Promise<{ loads: () => number }> {
  let loads = 0;
  const observer = new QueryObserver<T>(client, {
    queryKey: key,
    queryFn: () => {
      const answer = answers[Math.min(loads, answers.length - 1)] as T;
      loads += 1;
      return answer;
    },
  });
  stops.push(observer.subscribe(() => undefined));
  await vi.waitFor(() => expect(client.getQueryData(key)).toBeDefined());
  return { loads: () => loads };
}

describe('live cache: event: sync', () => {
  const listKey = queryKeys.sync.folders();
  const pageKey = queryKeys.sync.detail(SYNC_FOLDER.id);
  const versionsKey = queryKeys.sync.versions(SYNC_FOLDER.id, 20);
  const other: SyncFolderView = { ...SYNC_FOLDER, id: 'f2', path: '/home/me/photos' };
  const page = (): SyncFolderPage | undefined => client.getQueryData(pageKey);
  const versions = (...items: SyncVersion[]) => ({ items, total: items.length });

  it("puts a folder's row in place, a new one first, and drops a removed one, loading nothing again", async () => {
    const list = await shown<SyncFolderList>(listKey, [SYNC_FOLDER]);
    hub.dispatch({ type: 'sync', payload: { ...SYNC_FOLDER, state: 'syncing' } });
    hub.dispatch({ type: 'sync', payload: other });
    expect(client.getQueryData<SyncFolderList>(listKey)?.map((row) => `${row.id}:${row.state}`)).toEqual(['f2:idle', 'f1:syncing']);
    hub.dispatch({ type: 'sync', payload: { id: 'f1', removed: true } });
    expect(client.getQueryData<SyncFolderList>(listKey)?.map((row) => row.id)).toEqual(['f2']);
    await settled();
    expect(list.loads()).toBe(1);
  });

  it("patches a folder's page in place for progress, and loads nothing again", async () => {
    const detail = await shown<SyncFolderPage>(pageKey, { kind: 'folder', folder: SYNC_FOLDER_DETAIL });
    const kept = await shown(versionsKey, versions(SYNC_VERSION));
    hub.dispatch({ type: 'sync', payload: { ...SYNC_FOLDER, current_file: 'a.txt' } });
    expect(page()).toEqual({ kind: 'folder', folder: { ...SYNC_FOLDER_DETAIL, current_file: 'a.txt' } });
    await settled();
    expect([detail.loads(), kept.loads()]).toEqual([1, 1]);
  });

  it("loads the folder's page and its versions again, together at once, when a batch settled on a new root", async () => {
    const newer = { ...SYNC_VERSION, root: 'bafynew', created_at: SYNC_VERSION.created_at + 1 };
    const detail = await shown<SyncFolderPage>(
      pageKey,
      { kind: 'folder', folder: SYNC_FOLDER_DETAIL },
      { kind: 'folder', folder: { ...SYNC_FOLDER_DETAIL, root: 'bafynew' } },
    );
    const kept = await shown(versionsKey, versions(SYNC_VERSION), versions(newer, SYNC_VERSION));
    hub.dispatch({ type: 'sync', payload: { ...SYNC_FOLDER, root: 'bafynew' } });
    await settled();
    expect([detail.loads(), kept.loads()]).toEqual([2, 2]);
    expect(timers.pending()).toEqual([LIVE_RELOAD_PAUSE_MS]);
  });

  it('loads the versions again when what history holds moved (retention let versions go), though the root stayed', async () => {
    await shown<SyncFolderPage>(pageKey, { kind: 'folder', folder: { ...SYNC_FOLDER_DETAIL, history_bytes: 4096 } });
    const kept = await shown(versionsKey, versions(SYNC_VERSION));
    hub.dispatch({ type: 'sync', payload: { ...SYNC_FOLDER, history_bytes: 0 } });
    await settled();
    expect(kept.loads()).toBe(2);
  });

  it('says the page of a removed folder was removed, and a load still on its way does not bring it back', async () => {
    await shown<SyncFolderPage>(pageKey, { kind: 'folder', folder: SYNC_FOLDER_DETAIL });
    void client.refetchQueries({ queryKey: pageKey });
    hub.dispatch({ type: 'sync', payload: { id: SYNC_FOLDER.id, removed: true } });
    await settled();
    expect(page()).toEqual({ kind: 'removed' });
  });
});
