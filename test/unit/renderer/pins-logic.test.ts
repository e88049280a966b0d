/** The pure logic of the Pins page: CIDs typed or pasted, the search box, live patches, the throttle, content links. */
import { describe, expect, it } from 'vitest';
import type { Timers } from '../../../renderer/events/event-stream.js';
import { cidFieldMessage, parseCidText, readCidInput } from '../../../renderer/lib/cid-text.js';
import { contentPath } from '../../../renderer/lib/gateway-links.js';
import { patchListPage } from '../../../renderer/lib/live-list.js';
import { createThrottle } from '../../../renderer/lib/throttle.js';
import { formatShortMoment, syncPinFolderPath, syncVersionLabel } from '../../../renderer/lib/sync-pins.js';
import { pinLabel } from '../../../renderer/pages/pins/pin-label.js';
import {
  choiceParam,
  describePinView,
  pinSearch,
  pinSearchParams,
  pinSearchText,
  pinStatusChoice,
  searchFilters,
  searchOfFilters,
  statusOfChoice,
} from '../../../renderer/pages/pins/pin-search.js';
import type { PinRecord } from '../../../shared/api-types.js';

const V1 = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
const V0 = 'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn';

describe('readCidInput', () => {
  it('takes a CID, trimmed, in v0 or v1', () => {
    expect(readCidInput(`  ${V1}\n`)).toEqual({ cid: V1 });
    expect(readCidInput(V0)).toEqual({ cid: V0 });
  });

  it('takes the CID out of the addresses people copy', () => {
    for (const address of [
      `ipfs://${V1}`,
      `/ipfs/${V1}`,
      `https://ipfs.io/ipfs/${V1}`,
      `http://127.0.0.1:5080/ipfs/${V1}/`,
      `https://${V1}.ipfs.dweb.link/`,
      `/ipfs/${V1}?filename=a.txt`,
    ]) {
      expect(readCidInput(address), address).toEqual({ cid: V1 });
    }
  });

  it('says what is wrong: nothing, not a CID, a path inside one, an address without a valid CID', () => {
    expect(readCidInput('   ')).toEqual({ problem: 'Enter a CID.' });
    expect(readCidInput('bafy-not-a-cid')).toEqual({ problem: 'This is not a CID. A CID looks like bafybei… or Qm….' });
    expect(readCidInput(`${V1} ${V1}`)).toMatchObject({ problem: expect.stringContaining('not a CID') as string });
    expect(readCidInput(`/ipfs/${V1}/docs/a.txt`)).toEqual({ problem: `Only a whole CID can be pinned, not a path inside it: use ${V1} instead.` });
    expect(readCidInput('ipfs://nope')).toEqual({ problem: 'This address holds no valid CID.' });
    expect(readCidInput(`b${'a'.repeat(600)}`)).toMatchObject({ problem: expect.stringContaining('not a CID') as string });
  });

  it('parseCidText is the search box test: a CID or an address of one, else null', () => {
    expect(parseCidText(V0)).toBe(V0);
    expect(parseCidText(`ipfs://${V1}`)).toBe(V1);
    expect(parseCidText('report 2026')).toBeNull();
    expect(parseCidText('')).toBeNull();
  });
});

describe('pinSearch', () => {
  it('tells a CID from a name, trims, and keeps a name within 255 characters', () => {
    expect(pinSearch('')).toEqual({ kind: 'none' });
    expect(pinSearch('   ')).toEqual({ kind: 'none' });
    expect(pinSearch(` ${V0} `)).toEqual({ kind: 'cid', cid: V0 });
    expect(pinSearch('  Report ')).toEqual({ kind: 'name', name: 'Report' });
    expect(pinSearch('x'.repeat(300))).toEqual({ kind: 'name', name: 'x'.repeat(255) });
    expect(searchFilters(pinSearch(V1))).toEqual({ cid: V1 });
    expect(searchFilters(pinSearch('photo'))).toEqual({ name: 'photo' });
    expect(searchFilters(pinSearch(''))).toEqual({});
  });

  it('reads back from a list query the search it stands for (what a page shown while the next loads was loaded for)', () => {
    for (const text of [V1, 'photo', '']) expect(searchOfFilters(searchFilters(pinSearch(text)))).toEqual(pinSearch(text));
    expect(searchOfFilters({ name: undefined, cid: undefined })).toEqual({ kind: 'none' });
  });

  it('keeps the search in the URL under the API filter it is: ?cid= for a CID (the ipfs:// deep link), ?name= for a name', () => {
    expect(pinSearchParams(V1)).toEqual({ cid: V1, name: null });
    expect(pinSearchParams(`ipfs://${V0}`)).toEqual({ cid: `ipfs://${V0}`, name: null });
    expect(pinSearchParams('report 1')).toEqual({ cid: null, name: 'report 1' });
    expect(pinSearchParams('  ')).toEqual({ cid: null, name: null });
    expect(pinSearchText(new URLSearchParams({ cid: V1 }))).toBe(V1);
    expect(pinSearchText(new URLSearchParams({ name: 'report' }))).toBe('report');
    expect(pinSearchText(new URLSearchParams({ name: 'report', cid: V0 }))).toBe(V0);
    expect(pinSearchText(new URLSearchParams({ status: 'pinned' }))).toBe('');
  });

  it('says what the table shows in words', () => {
    expect(describePinView({ kind: 'none' }, undefined, 100_000)).toBe('100,000 pins.');
    expect(describePinView({ kind: 'none' }, undefined, 1)).toBe('1 pin.');
    expect(describePinView({ kind: 'none' }, 'failure', 0)).toBe('No failed pins.');
    expect(describePinView({ kind: 'name', name: 'report' }, 'pinned', 3)).toBe('3 pinned pins whose name contains “report”.');
    expect(describePinView({ kind: 'cid', cid: V1 }, undefined, 1)).toBe(
      `1 pin with CID ${V1.slice(0, 14)}…${V1.slice(-8)} (in any of its spellings, v0 or v1).`,
    );
  });

  it('cidFieldMessage speaks of the CID field instead of the parameter', () => {
    expect(cidFieldMessage(`Arg: ${V1} uses multihash function 0x1e with a 32-byte digest, which Pinfold cannot verify.`)).toBe(
      'This CID uses multihash function 0x1e with a 32-byte digest, which Pinfold cannot verify.',
    );
    expect(cidFieldMessage("Your plan's limit on pins is reached.")).toBe("Your plan's limit on pins is reached.");
    expect(cidFieldMessage(null)).toBeNull();
  });
});

describe('patchListPage', () => {
  const pin = (cid: string, patch: Partial<PinRecord> = {}): PinRecord => ({ name: cid, cid, status: 'pinned', size: 1, created_at: 1, ...patch });
  const page = { items: [pin('a'), pin('b', { status: 'pinning' }), pin('c')], total: 30, next: 'n' };
  const key = (row: PinRecord) => row.cid;

  it('patches a record shown on the page in place, without a reload while it still matches', () => {
    const patched = patchListPage(page, { kind: 'changed', record: pin('b', { status: 'pinned', size: 9 }) }, key);
    expect(patched.reload).toBe(false);
    expect(patched.page?.items.map((row) => [row.cid, row.status, row.size])).toEqual([
      ['a', 'pinned', 1],
      ['b', 'pinned', 9],
      ['c', 'pinned', 1],
    ]);
    expect(patched.page).toMatchObject({ total: 30, next: 'n' });
    // The page given is not changed.
    expect(page.items[1]?.status).toBe('pinning');
  });

  it('asks for a reload when a shown record stops matching the filter, or one elsewhere changed', () => {
    const pinningOnly = (row: PinRecord) => row.status === 'pinning';
    expect(patchListPage(page, { kind: 'changed', record: pin('b', { status: 'pinned' }) }, key, pinningOnly).reload).toBe(true);
    expect(patchListPage(page, { kind: 'changed', record: pin('z') }, key)).toEqual({ page, reload: true });
  });

  it('takes a removed record off at once, counts it out of the total, and asks for a reload to fill the page', () => {
    const patched = patchListPage(page, { kind: 'removed', key: 'a' }, key);
    expect(patched.page?.items.map(key)).toEqual(['b', 'c']);
    expect(patched.page?.total).toBe(29);
    expect(patched.reload).toBe(true);
    expect(patchListPage(page, { kind: 'removed', key: 'z' }, key)).toEqual({ page, reload: true });
  });

  it('leaves a page not loaded yet alone', () => {
    expect(patchListPage<PinRecord>(undefined, { kind: 'removed', key: 'a' }, key)).toEqual({ page: undefined, reload: false });
  });
});

describe('createThrottle', () => {
  function fakeTimers(): Timers & { fire(): void; pending(): number } {
    let queue: Array<{ id: number; callback: () => void }> = [];
    let next = 1;
    return {
      setTimeout(callback) {
        queue.push({ id: next, callback });
        return next++;
      },
      clearTimeout(handle) {
        queue = queue.filter((entry) => entry.id !== handle);
      },
      fire() {
        const due = queue;
        queue = [];
        for (const entry of due) entry.callback();
      },
      pending: () => queue.length,
    };
  }

  it('runs the first call at once and a burst once at the end of the pause', () => {
    const timers = fakeTimers();
    let runs = 0;
    const throttle = createThrottle(() => (runs += 1), 1000, timers);
    throttle.call();
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) throttle.call();
    expect(runs).toBe(1);
    timers.fire();
    expect(runs).toBe(2);
    // The pause starts again after the trailing run; with no call in it, nothing more runs.
    timers.fire();
    expect(runs).toBe(2);
    expect(timers.pending()).toBe(0);
    throttle.call();
    expect(runs).toBe(3);
  });

  it('cancel drops a pending run', () => {
    const timers = fakeTimers();
    let runs = 0;
    const throttle = createThrottle(() => (runs += 1), 1000, timers);
    throttle.call();
    throttle.call();
    throttle.cancel();
    expect(timers.pending()).toBe(0);
    timers.fire();
    expect(runs).toBe(1);
  });
});

describe('contentPath', () => {
  it('links a file by its CID (named for the tab), a folder with its trailing slash', () => {
    expect(contentPath(V1)).toBe(`/ipfs/${V1}`);
    expect(contentPath(V1, { filename: 'a report.pdf' })).toBe(`/ipfs/${V1}?filename=a+report.pdf`);
    expect(contentPath(V0, { directory: true })).toBe(`/ipfs/${V0}/`);
  });

  it('leaves out a name the gateway would refuse as a filename (blank, or more than one line)', () => {
    for (const name of ['', '   ', 'two\nlines', 'carriage\rreturn', 'nul\u0000byte']) expect(contentPath(V1, { filename: name }), name).toBe(`/ipfs/${V1}`);
  });
});

describe('the status filter (issue 26): Active by default, All for a CID search', () => {
  const none = { kind: 'none' } as const;
  const byCid = { kind: 'cid', cid: V1 } as const;

  it('reads the URL: no status is Active (All when searching a CID), and an unknown one too', () => {
    expect(pinStatusChoice(null, none)).toBe('active');
    expect(pinStatusChoice('nonsense', { kind: 'name', name: 'x' })).toBe('active');
    expect(pinStatusChoice(null, byCid)).toBe('all');
    expect(pinStatusChoice('active', byCid)).toBe('active');
    expect(pinStatusChoice('all', none)).toBe('all');
    expect(pinStatusChoice('unpinning', none)).toBe('unpinning');
  });

  it('asks the list for status=active, none for All, and keeps the default out of the URL', () => {
    expect(statusOfChoice('active')).toBe('active');
    expect(statusOfChoice('all')).toBeUndefined();
    expect(statusOfChoice('failure')).toBe('failure');
    expect(choiceParam('active', none)).toBeNull();
    expect(choiceParam('active', byCid)).toBe('active');
    expect(choiceParam('all', none)).toBe('all');
  });

  it('says "active" in the summary', () => {
    expect(describePinView(none, 'active', 12)).toBe('12 active pins.');
    expect(describePinView({ kind: 'name', name: 'x' }, 'active', 0)).toBe('No active pins whose name contains “x”.');
  });
});

describe("a sync folder's version pins (issue 26)", () => {
  // 28 Nov 2026 00:34 in the local time zone.
  const at = new Date(2026, 10, 28, 0, 34, 56).getTime() / 1000;
  const now = new Date(2026, 11, 1).getTime();

  it('finds the folder path in the name the service gives them, POSIX, Windows or UNC, and nothing in other names', () => {
    expect(syncPinFolderPath('sync /home/me/notes')).toBe('/home/me/notes');
    expect(syncPinFolderPath('sync C:\\Users\\me\\notes')).toBe('C:\\Users\\me\\notes');
    expect(syncPinFolderPath('sync \\\\host\\share')).toBe('\\\\host\\share');
    for (const name of ['sync notes', 'synced /home', 'report.pdf', '', 'sync ']) expect(syncPinFolderPath(name), name).toBeNull();
  });

  it('reads as the folder and the time, with the year when it is not this one', () => {
    expect(formatShortMoment(at, now)).toBe('28 Nov 00:34');
    expect(formatShortMoment(at, new Date(2027, 0, 2).getTime())).toBe('28 Nov 2026 00:34');
    expect(syncVersionLabel({ name: 'sync /home/me/notes/', created_at: at }, now)).toBe('notes · 28 Nov 00:34');
    expect(syncVersionLabel({ name: 'sync C:\\Users\\me\\photos', created_at: at }, now)).toBe('photos · 28 Nov 00:34');
    expect(syncVersionLabel({ name: 'notes', created_at: at }, now)).toBeNull();
  });

  it('names the pin everywhere the page does (buttons, dialogs, toasts)', () => {
    expect(pinLabel({ name: 'sync /home/me/notes', cid: V1, created_at: Date.now() / 1000 })).toMatch(/^notes · \d{1,2} [A-Z][a-z]+ \d{2}:\d{2}$/);
    expect(pinLabel({ name: 'report.pdf', cid: V1, created_at: at })).toBe('report.pdf');
    expect(pinLabel({ name: '', cid: V1, created_at: at })).toBe('bafkreigh2…4s52zy');
  });
});
