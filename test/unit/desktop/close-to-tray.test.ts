import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeNoticeOnce, keepRunningOnClose, type HideableWindow } from '../../../main/desktop/close-to-tray.js';
import { DEFAULT_PREFERENCES, parsePreferences, preferencesFile, type PreferencesStore } from '../../../main/desktop/shell-preferences.js';
import { deferred } from '../../helpers/deferred.js';

/** A window stand-in: `close()` fires the close event as Electron does and says whether it was stopped. */
class FakeWindow implements HideableWindow {
  hides = 0;
  private listener: ((event: { preventDefault(): void }) => void) | null = null;
  on(_event: 'close', listener: (event: { preventDefault(): void }) => void) {
    this.listener = listener;
  }
  hide() {
    this.hides += 1;
  }
  close(): 'closed' | 'kept' {
    let prevented = false;
    this.listener?.({ preventDefault: () => (prevented = true) });
    return prevented ? 'kept' : 'closed';
  }
}

describe('keepRunningOnClose', () => {
  it('hides the window instead of closing it, every time, until the app quits', () => {
    const win = new FakeWindow();
    let quitting = false;
    let hidden = 0;
    keepRunningOnClose(win, { isQuitting: () => quitting, hidden: () => (hidden += 1) });
    expect(win.close()).toBe('kept');
    expect(win.close()).toBe('kept');
    expect(win.hides).toBe(2);
    expect(hidden).toBe(2);
    quitting = true;
    expect(win.close()).toBe('closed');
    expect(win.hides).toBe(2);
  });
});

/** Preferences in memory that record each save; `nextSave` resolves at the next one. */
function recordingStore(initial = DEFAULT_PREFERENCES) {
  let saved = initial;
  const saves: unknown[] = [];
  let onSave: () => void = () => {};
  const store: PreferencesStore = {
    load: async () => saved,
    save: async (next) => {
      saved = next;
      saves.push(next);
      onSave();
    },
  };
  return {
    store,
    saves,
    nextSave: () => {
      const next = deferred();
      onSave = next.resolve;
      return next.promise;
    },
  };
}

describe('closeNoticeOnce', () => {
  it('tells the first time and remembers it', async () => {
    const { store, saves, nextSave } = recordingStore();
    let notices = 0;
    const hidden = closeNoticeOnce(store, () => (notices += 1));
    const saved = nextSave();
    hidden();
    hidden();
    await saved;
    expect(notices).toBe(1);
    expect(saves).toEqual([{ closeNoticeShown: true }]);
  });

  it('never again once remembered, in a later run', async () => {
    const { store } = recordingStore({ closeNoticeShown: true });
    let notices = 0;
    const loaded = deferred();
    const hidden = closeNoticeOnce({ load: async () => (setImmediate(loaded.resolve), store.load()), save: (next) => store.save(next) }, () => (notices += 1));
    hidden();
    await loaded.promise;
    expect(notices).toBe(0);
  });

  it('reports a failed save, still tells only once in this run', async () => {
    const errors: unknown[] = [];
    let notices = 0;
    const reported = deferred();
    const store: PreferencesStore = { load: async () => DEFAULT_PREFERENCES, save: async () => Promise.reject(new Error('read-only disk')) };
    const hidden = closeNoticeOnce(
      store,
      () => (notices += 1),
      (error) => (errors.push(error), reported.resolve()),
    );
    hidden();
    hidden();
    await reported.promise;
    expect(notices).toBe(1);
    expect((errors[0] as Error).message).toBe('read-only disk');
  });
});

describe('preferencesFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-prefs-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the defaults when there is no file, and what was saved after', async () => {
    const file = join(dir, 'nested', 'desktop.json');
    const store = preferencesFile(file);
    expect(await store.load()).toEqual({ closeNoticeShown: false });
    await store.save({ closeNoticeShown: true });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ closeNoticeShown: true });
    expect(await preferencesFile(file).load()).toEqual({ closeNoticeShown: true });
  });

  it('reads a damaged file as the defaults', async () => {
    const file = join(dir, 'desktop.json');
    await writeFile(file, '{"closeNoticeShown": tr');
    expect(await preferencesFile(file).load()).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('null')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('{"closeNoticeShown":"yes"}')).toEqual(DEFAULT_PREFERENCES);
  });
});
