/** The renderer's small pure modules: backoff, pagination, list URLs, drag depth, toasts, status looks, themes, routes, sign-in links. */
import { describe, expect, it } from 'vitest';
import { APP_PAGES } from '../../../main/http/routes/renderer-files.js';
import { APP_PATH_PATTERNS, isReturnTarget, NAV_ITEMS, navItemFor, navItemsFor, rememberReturnTarget, takeReturnTarget } from '../../../renderer/app/routes.js';
import { takeSignInCode } from '../../../renderer/app/sign-in-code.js';
import { backoffDelay } from '../../../renderer/lib/backoff.js';
import { nextDragDepth, type DragSignal } from '../../../renderer/lib/drag-depth.js';
import { parseListPosition, withListPosition } from '../../../renderer/lib/list-params.js';
import { clampStart, formatRange, pageInfo } from '../../../renderer/lib/pagination.js';
import { nextSort, sortRows } from '../../../renderer/lib/sort.js';
import { pinStatusLook, syncStateLook } from '../../../renderer/lib/status.js';
import { parseThemeChoice, resolveTheme } from '../../../renderer/lib/theme.js';
import { MAX_TOASTS, toastsReducer, type Toast } from '../../../renderer/lib/toasts.js';
import { PIN_STATUSES } from '../../../shared/api-types.js';
import { memoryStorage } from '../../helpers/memory-storage.js';

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, spread over the upper half', () => {
    const low = (attempt: number) => backoffDelay(attempt, { baseMs: 1000, maxMs: 30_000, random: () => 0 });
    const high = (attempt: number) => backoffDelay(attempt, { baseMs: 1000, maxMs: 30_000, random: () => 0.999999 });
    expect([0, 1, 2, 3, 4, 5, 6].map(low)).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect([0, 1, 5, 40].map(high)).toEqual([1000, 2000, 30_000, 30_000]);
    expect(low(-3)).toBe(500);
  });
});

describe('pageInfo and formatRange', () => {
  it('says "1–25 of 100,000" and where first/prev/next/last go', () => {
    const first = pageInfo(0, 25, 100_000);
    expect(formatRange(first, 100_000)).toBe('1–25 of 100,000');
    expect(first).toMatchObject({ page: 1, pageCount: 4000, prevStart: null, nextStart: 25, lastStart: 99_975 });
    const last = pageInfo(99_975, 25, 100_000);
    expect(formatRange(last, 100_000)).toBe('99,976–100,000 of 100,000');
    expect(last).toMatchObject({ page: 4000, prevStart: 99_950, nextStart: null });
  });

  it('handles a short last page, an empty list and a start past the end', () => {
    expect(formatRange(pageInfo(20, 10, 23), 23)).toBe('21–23 of 23');
    expect(pageInfo(0, 10, 0)).toMatchObject({ from: 0, to: 0, page: 1, pageCount: 1, prevStart: null, nextStart: null, lastStart: 0 });
    expect(formatRange(pageInfo(0, 10, 0), 0)).toBe('0 of 0');
    expect(pageInfo(500, 10, 23)).toMatchObject({ from: 21, page: 3 });
    expect(pageInfo(13, 10, 100)).toMatchObject({ from: 11, page: 2 });
  });

  it('clampStart moves back to the last page when rows went away', () => {
    expect(clampStart(20, 10, 20)).toBe(10);
    expect(clampStart(10, 10, 20)).toBe(10);
    expect(clampStart(0, 10, 0)).toBe(0);
  });
});

describe('list position in the URL', () => {
  it('reads page and size, defaulting to page 1 of 25 and ignoring nonsense', () => {
    expect(parseListPosition(new URLSearchParams(''))).toEqual({ start: 0, limit: 25 });
    expect(parseListPosition(new URLSearchParams('page=3&size=50'))).toEqual({ start: 100, limit: 50 });
    expect(parseListPosition(new URLSearchParams('page=-2&size=33'))).toEqual({ start: 0, limit: 25 });
    expect(parseListPosition(new URLSearchParams('page=2.5'))).toEqual({ start: 0, limit: 25 });
  });

  it('writes only what differs from the defaults, keeping the filters', () => {
    expect(withListPosition(new URLSearchParams('status=pinned'), { start: 100, limit: 50 }).toString()).toBe('status=pinned&page=3&size=50');
    expect(withListPosition(new URLSearchParams('status=pinned&page=3&size=50'), { start: 0, limit: 25 }).toString()).toBe('status=pinned');
  });
});

describe('nextDragDepth', () => {
  it('stays over the page while the pointer crosses children, and resets on drop or end', () => {
    const run = (signals: DragSignal[]) => signals.reduce(nextDragDepth, 0);
    expect(run(['enter', 'enter', 'leave'])).toBe(1);
    expect(run(['enter', 'enter', 'leave', 'leave'])).toBe(0);
    expect(run(['leave', 'leave'])).toBe(0);
    expect(run(['enter', 'enter', 'drop'])).toBe(0);
    expect(run(['enter', 'end'])).toBe(0);
  });
});

describe('toastsReducer', () => {
  const toast = (id: number, message = `m${id}`): Toast => ({ id, message, tone: 'success' });
  it('keeps the newest three and shows a repeated message once', () => {
    let state: Toast[] = [];
    for (const id of [1, 2, 3, 4]) state = toastsReducer(state, { type: 'show', toast: toast(id) });
    expect(state.map((t) => t.id)).toEqual([2, 3, 4]);
    expect(state).toHaveLength(MAX_TOASTS);
    state = toastsReducer(state, { type: 'show', toast: toast(5, 'm3') });
    expect(state.map((t) => t.id)).toEqual([2, 4, 5]);
    state = toastsReducer(state, { type: 'dismiss', id: 4 });
    expect(state.map((t) => t.id)).toEqual([2, 5]);
  });
});

describe('status looks', () => {
  it('give every pin and sync state a word, never colour alone', () => {
    expect(PIN_STATUSES.map((status) => pinStatusLook(status).label)).toEqual(['Pinning', 'Pinned', 'Failed', 'Unpinning']);
    expect(syncStateLook('idle')).toEqual({ label: 'Up to date', tone: 'success' });
    expect(syncStateLook('error').tone).toBe('danger');
  });
});

describe('theme choice', () => {
  it('is system unless light or dark was chosen, and resolves against the system', () => {
    expect(parseThemeChoice(null)).toBe('system');
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice('purple')).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
  });
});

describe('routes', () => {
  it('lists the navigation in order, Partners only for partners', () => {
    expect(NAV_ITEMS.map((item) => item.label)).toEqual(['Overview', 'Files', 'Pins', 'Names', 'Keys', 'Sync', 'Partners', 'Settings']);
    expect(navItemsFor(false).map((item) => item.label)).toEqual(['Overview', 'Files', 'Pins', 'Names', 'Keys', 'Sync', 'Settings']);
    expect(navItemsFor(true)).toHaveLength(8);
  });

  it('are exactly the pages the service answers with the app', () => {
    expect([...APP_PATH_PATTERNS].sort()).toEqual([...APP_PAGES].sort());
  });

  it('marks the section a path belongs to', () => {
    expect(navItemFor('/sync/abc')?.label).toBe('Sync');
    expect(navItemFor('/pins/')?.label).toBe('Pins');
    expect(navItemFor('/PINS')?.label).toBe('Pins');
    expect(navItemFor('/pinsx')).toBeUndefined();
    expect(navItemFor('/')).toBeUndefined();
  });

  it('returns after sign-in only to a page of the app', () => {
    for (const good of ['/pins', '/pins/', '/pins?status=pinned&page=2', '/sync/3f2a', '/settings#theme', '/view?path=%2Fipfs%2Fbafy'])
      expect(isReturnTarget(good), good).toBe(true);
    for (const bad of [
      '',
      'pins',
      '//evil.example/pins',
      '/signin',
      '/signin?code=x',
      '/api/v0/stats',
      '/ipfs/bafy',
      '/sync/a/b',
      'https://evil.example/',
      '/\\evil.example/view',
      '/view/x',
    ]) {
      expect(isReturnTarget(bad), bad).toBe(false);
    }
  });

  it('remembers a deep link across sign-in, once', () => {
    const storage = memoryStorage();
    rememberReturnTarget(storage, '//evil.example');
    expect(takeReturnTarget(storage)).toBe('/overview');
    rememberReturnTarget(storage, '/pins?page=3');
    expect(takeReturnTarget(storage)).toBe('/pins?page=3');
    expect(takeReturnTarget(storage)).toBe('/overview');
    storage.setItem('pinfold.return-to', '/api/v0/stats');
    expect(takeReturnTarget(storage)).toBe('/overview');
  });
});

describe('takeSignInCode', () => {
  it('takes the code from a sign-in link and gives the address without it', () => {
    expect(takeSignInCode({ pathname: '/signin', search: '?code=abc_-1', hash: '' })).toEqual({ code: 'abc_-1', cleanPath: '/signin', next: null });
    expect(takeSignInCode({ pathname: '/signin/', search: '?x=1&code=abc', hash: '#top' })).toEqual({ code: 'abc', cleanPath: '/signin/?x=1#top', next: null });
    expect(takeSignInCode({ pathname: '/signin', search: '?code=', hash: '' })).toEqual({ code: '', cleanPath: '/signin', next: null });
  });

  it('takes the page to show next when it is a page of the app, and leaves it out of the address too', () => {
    const view = `/view?path=${encodeURIComponent('/ipfs/bafy/a b.txt')}`;
    expect(takeSignInCode({ pathname: '/signin', search: `?code=abc&next=${encodeURIComponent(view)}`, hash: '' })).toEqual({
      code: 'abc',
      cleanPath: '/signin',
      next: view,
    });
    expect(takeSignInCode({ pathname: '/signin', search: '?next=%2Fpins%3Fpage%3D2&code=abc', hash: '' })?.next).toBe('/pins?page=2');
  });

  it('ignores a next that leaves the app: another origin, //host, a path the app does not answer, sign-in itself', () => {
    for (const next of [
      'https://evil.example/view',
      '//evil.example/view?path=x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/api/v0/stats',
      '/ipfs/bafy',
      '/signin?code=x',
      'view',
      '',
    ]) {
      const link = takeSignInCode({ pathname: '/signin', search: `?code=abc&next=${encodeURIComponent(next)}`, hash: '' });
      expect(link, next).toEqual({ code: 'abc', cleanPath: '/signin', next: null });
    }
  });

  it('leaves other pages and a sign-in page without a code alone', () => {
    expect(takeSignInCode({ pathname: '/pins', search: '?code=abc', hash: '' })).toBeNull();
    expect(takeSignInCode({ pathname: '/signin', search: '', hash: '' })).toBeNull();
  });
});

describe('table sorting', () => {
  it('a new column sorts ascending, the sorted one flips', () => {
    expect(nextSort(null, 'name')).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort({ key: 'name', direction: 'ascending' }, 'name')).toEqual({ key: 'name', direction: 'descending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'name')).toEqual({ key: 'name', direction: 'ascending' });
    expect(nextSort({ key: 'name', direction: 'descending' }, 'size')).toEqual({ key: 'size', direction: 'ascending' });
  });

  it('sorts rows by words in natural order and by numbers, keeping ties in place', () => {
    const rows = [
      { name: 'key 10', size: 3 },
      { name: 'Key 9', size: 1 },
      { name: 'alpha', size: 3 },
    ];
    const value = (row: (typeof rows)[number], key: string) => (key === 'size' ? row.size : row.name);
    expect(sortRows(rows, { key: 'name', direction: 'ascending' }, value).map((row) => row.name)).toEqual(['alpha', 'Key 9', 'key 10']);
    expect(sortRows(rows, { key: 'size', direction: 'descending' }, value).map((row) => row.name)).toEqual(['key 10', 'alpha', 'Key 9']);
    expect(sortRows(rows, null, value)).toEqual(rows);
  });
});
