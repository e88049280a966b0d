import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { createMainWindow, handleSecondInstance, mainWindowOptions, rendererPageUrl, type WindowLike } from '../../../main/desktop/window.js';

type NavigateListener = (event: { preventDefault(): void }, url: string) => void;

/** A hand-written BrowserWindow stand-in: records what the desktop code does to it. */
class FakeWindow implements WindowLike {
  static created: FakeWindow[] = [];
  readonly loaded: string[] = [];
  readonly calls: string[] = [];
  readyToShow: (() => void) | null = null;
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  readonly navigateListeners = new Map<string, NavigateListener>();
  minimized = false;
  destroyed = false;
  readonly webContents = {
    setWindowOpenHandler: (handler: (details: { url: string }) => { action: 'deny' }) => {
      this.openHandler = handler;
    },
    on: (event: 'will-navigate' | 'will-redirect', listener: NavigateListener) => {
      this.navigateListeners.set(event, listener);
    },
  };

  constructor(readonly options: BrowserWindowConstructorOptions) {
    FakeWindow.created.push(this);
  }
  once(event: 'ready-to-show', listener: () => void) {
    if (event === 'ready-to-show') this.readyToShow = listener;
  }
  show() {
    this.calls.push('show');
  }
  focus() {
    this.calls.push('focus');
  }
  restore() {
    this.calls.push('restore');
    this.minimized = false;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
}

function navigate(win: FakeWindow, event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false;
  const listener = win.navigateListeners.get(event);
  if (!listener) throw new Error(`no ${event} listener`);
  listener({ preventDefault: () => (prevented = true) }, url);
  return prevented;
}

const SERVICE = 'http://127.0.0.1:5080';

function open() {
  const opened: string[] = [];
  const win = createMainWindow(FakeWindow, SERVICE, '/app/dist/desktop/preload.cjs', { packaged: true, openExternal: (url) => opened.push(url) });
  return { win, opened };
}

describe('mainWindowOptions', () => {
  it('isolates the page: sandbox, context isolation, no Node, web security, the preload', () => {
    const prefs = mainWindowOptions('/p/preload.cjs', true).webPreferences;
    expect(prefs).toMatchObject({
      preload: '/p/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('has no DevTools in an installed app, only in a development run', () => {
    expect(mainWindowOptions('/p/preload.cjs', true).webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions('/p/preload.cjs', false).webPreferences?.devTools).toBe(true);
    const installed = createMainWindow(FakeWindow, SERVICE, '/p.cjs', { packaged: true, openExternal: () => {} });
    expect(installed.options.webPreferences?.devTools).toBe(false);
  });
});

describe('createMainWindow', () => {
  it('loads the renderer at the service root and shows the window once it is ready', () => {
    const { win } = open();
    expect(win.options.webPreferences?.preload).toBe('/app/dist/desktop/preload.cjs');
    expect(win.options.show).toBe(false);
    expect(win.loaded).toEqual([`${SERVICE}/`]);
    expect(win.calls).toEqual([]);
    win.readyToShow?.();
    expect(win.calls).toEqual(['show']);
  });

  it('never opens new windows; allowed links go to the system browser', () => {
    const { win, opened } = open();
    expect(win.openHandler?.({ url: 'https://github.com/ipfs/helia' })).toEqual({ action: 'deny' });
    expect(win.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(win.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/ipfs/helia']);
  });

  it('opens on a page of the renderer when asked, and hidden when launched at login', () => {
    const opened: string[] = [];
    const win = createMainWindow(FakeWindow, SERVICE, '/p.cjs', {
      packaged: true,
      openExternal: (url) => opened.push(url),
      path: '/sync/4f1c',
      startHidden: true,
    });
    expect(win.loaded).toEqual([`${SERVICE}/sync/4f1c`]);
    // Hidden: nothing shows it when the page is ready; the tray's Open Pinfold will.
    expect(win.readyToShow).toBeNull();
  });

  it("a file dropped outside the page's drop zones does not navigate the window, nor open anything", () => {
    const { win, opened } = open();
    // Chromium turns a drop it was not told about into a navigation to the file.
    expect(navigate(win, 'will-navigate', 'file:///home/me/Photos/')).toBe(true);
    expect(navigate(win, 'will-navigate', 'file:///C:/Users/me/report.pdf')).toBe(true);
    expect(opened).toEqual([]);
    expect(win.loaded).toEqual([`${SERVICE}/`]);
  });

  it('stays on the renderer: navigation elsewhere, gateway pages included, is stopped', () => {
    const { win, opened } = open();
    expect(navigate(win, 'will-navigate', `${SERVICE}/`)).toBe(false);
    expect(navigate(win, 'will-navigate', `${SERVICE}/index.html#overview`)).toBe(false);
    expect(navigate(win, 'will-navigate', `${SERVICE}/ipfs/bafkqaaa`)).toBe(true);
    expect(navigate(win, 'will-navigate', 'http://127.0.0.1:5081/')).toBe(true);
    expect(navigate(win, 'will-redirect', 'https://docs.ipfs.tech/')).toBe(true);
    // A gateway page of our own service opens in the browser, where it has no bridge.
    expect(opened).toEqual([`${SERVICE}/ipfs/bafkqaaa`, 'https://docs.ipfs.tech/']);
  });
});

describe('rendererPageUrl', () => {
  it('keeps pages of the renderer, with their query', () => {
    expect(rendererPageUrl(SERVICE, '/pins?cid=bafkqaaa')).toBe(`${SERVICE}/pins?cid=bafkqaaa`);
    expect(rendererPageUrl(SERVICE, '/sync/4f1c')).toBe(`${SERVICE}/sync/4f1c`);
    expect(rendererPageUrl(SERVICE, undefined)).toBe(`${SERVICE}/`);
  });

  it('turns anything else into the root: gateway content, the API, other origins, climbs', () => {
    for (const path of ['/ipfs/bafkqaaa', '/api/v0/stats', '//evil.example/', 'https://evil.example/', '/pins/../ipfs/bafkqaaa', '/\\evil.example', '']) {
      expect(rendererPageUrl(SERVICE, path), path).toBe(`${SERVICE}/`);
    }
  });
});

describe('handleSecondInstance', () => {
  it('restores, shows and focuses the running window', () => {
    const win = new FakeWindow({});
    win.minimized = true;
    expect(handleSecondInstance(win)).toBe(true);
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
  });

  it('does not restore a window that is not minimized', () => {
    const win = new FakeWindow({});
    expect(handleSecondInstance(win)).toBe(true);
    expect(win.calls).toEqual(['show', 'focus']);
  });

  it('reports that there is no window to show', () => {
    expect(handleSecondInstance(null)).toBe(false);
    const gone = new FakeWindow({});
    gone.destroyed = true;
    expect(handleSecondInstance(gone)).toBe(false);
    expect(gone.calls).toEqual([]);
  });
});
