import type { BrowserWindowConstructorOptions } from 'electron';
import { isAllowedExternalUrl, isRendererUrl } from './external-urls.js';

/**
 * The parts of a BrowserWindow the desktop uses. Electron's class satisfies it; tests pass a small
 * hand-written class, because the Electron binary cannot run under plain Node.
 */
export interface WindowLike {
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  loadURL(url: string): Promise<void>;
  webContents: {
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
    on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  };
}

export type WindowClass<W extends WindowLike> = new (options: BrowserWindowConstructorOptions) => W;

/**
 * Security settings per Electron's checklist; the preload is the page's only way to the main process.
 * An installed app has no DevTools: they would let anyone at the keyboard (or a script that drives the
 * window) read the owner key out of the page and call the bridge by hand.
 */
export function mainWindowOptions(preloadPath: string, packaged: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1080,
    height: 760,
    minWidth: 480,
    minHeight: 400,
    title: 'Pinfold',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: !packaged,
    },
  };
}

export interface MainWindowDeps {
  /** app.isPackaged: an installed app (no DevTools), not a development run. */
  packaged: boolean;
  /** Opens a URL in the system browser (shell.openExternal). */
  openExternal(url: string): void;
  allowedHosts?: readonly string[];
  /** A page of the renderer to open on, e.g. `/sync/<id>` (default: the root, which goes to the Overview). */
  path?: string;
  /** Launched at login: load the page but stay in the tray until asked. */
  startHidden?: boolean;
}

/**
 * Opens the window on the renderer served by the local service. The window never leaves the renderer:
 * other URLs (links, window.open, redirects) go to the system browser when allowed, else nowhere.
 */
export function createMainWindow<W extends WindowLike>(Window: WindowClass<W>, serviceUrl: string, preloadPath: string, deps: MainWindowDeps): W {
  const serviceOrigin = new URL(serviceUrl).origin;
  const win = new Window(mainWindowOptions(preloadPath, deps.packaged));
  if (deps.startHidden !== true) win.once('ready-to-show', () => win.show());
  const sendOut = (url: string) => {
    if (isAllowedExternalUrl(url, serviceOrigin, deps.allowedHosts)) deps.openExternal(url);
  };
  win.webContents.setWindowOpenHandler(({ url }) => {
    sendOut(url);
    return { action: 'deny' };
  });
  const keepOnRenderer = (event: { preventDefault(): void }, url: string) => {
    if (isRendererUrl(url, serviceOrigin)) return;
    event.preventDefault();
    sendOut(url);
  };
  win.webContents.on('will-navigate', keepOnRenderer);
  win.webContents.on('will-redirect', keepOnRenderer);
  void win.loadURL(rendererPageUrl(serviceOrigin, deps.path));
  return win;
}

/** The URL of a renderer page; anything that is not one (gateway content, the API, another origin) gives the root. */
export function rendererPageUrl(serviceOrigin: string, path: string | undefined): string {
  if (path !== undefined && path.startsWith('/') && !path.startsWith('//')) {
    const url = `${serviceOrigin}${path}`;
    if (isRendererUrl(url, serviceOrigin)) return new URL(url).href;
  }
  return `${serviceOrigin}/`;
}

/**
 * A second launch hands over to the running instance: bring its window to the front. Returns false
 * when there is no window to show (the caller opens a new one).
 */
export function handleSecondInstance(win: Pick<WindowLike, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'> | null): boolean {
  if (win === null || win.isDestroyed()) return false;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
  return true;
}
