import type { Rectangle } from 'electron';
import { isRendererUrl } from './external-urls.js';
import { handleSecondInstance, rendererPageUrl } from './window.js';

/**
 * Which window the bridge trusts, and when the window may talk to the service's port at all.
 *
 * The window shows the renderer the service serves at http://127.0.0.1:PORT, and the port proves nothing:
 * after a crash it is free until the restart, and any local program may take it. So (desktop-service.ts)
 * a run of the service counts only once the process on the port proved it holds this run's token, and:
 * - while no run is verified, every request of the window's session to the service's origin is cancelled
 *   (a reload, the tray's Open, a notification's click, the page's own calls with the owner key in their
 *   headers): a squatter gets nothing from the window and serves nothing into it;
 * - the bridge answers only the window made during the current verified run. When a new run is
 *   verified, what pages of the origin left in the session (HTTP cache, service workers, their caches)
 *   is forgotten first, and a window of an earlier run is replaced whole, on the page it showed: a new
 *   renderer, no page state, no session storage, so nothing a squatter's page could have planted in the
 *   moment between a crash and the main process hearing of it outlives that run.
 *
 * Why not serve the renderer from a custom scheme (app://) instead: the renderer is the page every browser
 * gets from the service, and it relies on being same-origin with the API and the gateway (its calls, the
 * gateway worker that signs content requests, its content security policy, upload addresses). Moved to
 * app://, every call would turn cross-origin (CORS for a custom scheme, a privileged scheme for the
 * worker), and the page would still send the owner key to whatever answers on the port: app:// protects
 * the bridge, not the key. Verifying the port protects both.
 */
export interface GuardedWindow {
  readonly webContents: { readonly id: number; getURL(): string };
  isDestroyed(): boolean;
  isVisible(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  /** Closes at once, without the close event (which would only hide it). */
  destroy(): void;
  getBounds(): Rectangle;
  setBounds(bounds: Rectangle): void;
  loadURL(url: string): Promise<void>;
  once(event: 'closed', listener: () => void): unknown;
}

/** The verified runs of the service (desktop-service.ts). */
export interface VerifiedRuns {
  verifiedRun(): number | null;
  onStateChange(listener: () => void): () => void;
}

export interface WindowGuardInit<W extends GuardedWindow> {
  /** The service's origin, e.g. http://127.0.0.1:5080 (a restarted service keeps its port). */
  origin: string;
  service: VerifiedRuns;
  /** Makes the window on a page of the renderer (window.ts's createMainWindow, and what main.ts hangs on it). */
  create(page: { path: string | undefined; hidden: boolean }): W;
  /** Forgets what pages of the origin left in the session: its HTTP cache, service workers and their caches. */
  forgetOrigin(origin: string): Promise<void>;
  onError(error: unknown): void;
}

export interface WindowGuard<W extends GuardedWindow> {
  /**
   * Shows the window, made if needed, on a page of the renderer when one is given. While no run is
   * ready, an existing window is shown as it is and the page waits for the run.
   */
  open(path?: string): void;
  /** The window, if there is one. */
  window(): W | null;
  /** Whether a call over the bridge from this webContents is answered: the window of the current verified run only. */
  isTrusted(webContentsId: number): boolean;
  /** Whether the session may send a request: to the service's origin only while a verified run is ready. */
  allowsRequest(url: string): boolean;
  stop(): void;
}

export function createWindowGuard<W extends GuardedWindow>(init: WindowGuardInit<W>): WindowGuard<W> {
  let win: W | null = null;
  /** The run the window was made in. */
  let windowRun: number | null = null;
  /** The verified run whose leftovers were forgotten: the window may load in it and be trusted. */
  let readyRun: number | null = null;
  /** The newest verified run seen (being prepared, or ready). */
  let seenRun: number | null = null;
  /** An open asked for while no run was ready; carried out once one is. */
  let wanted: { path: string | undefined } | null = null;

  const ready = (): number | null => {
    const run = init.service.verifiedRun();
    return run !== null && run === readyRun ? run : null;
  };
  const live = (): W | null => (win !== null && !win.isDestroyed() ? win : null);

  const make = (run: number, path: string | undefined, hidden: boolean): W => {
    const made = init.create({ path, hidden });
    win = made;
    windowRun = run;
    made.once('closed', () => {
      if (win !== made) return;
      win = null;
      windowRun = null;
    });
    return made;
  };

  const discard = (old: W): void => {
    win = null;
    windowRun = null;
    old.destroy();
  };

  const open = (path?: string): void => {
    const run = ready();
    const current = live();
    if (run === null) {
      wanted = { path };
      if (current !== null) handleSecondInstance(current);
      return;
    }
    if (current !== null && windowRun === run) {
      if (path !== undefined) void current.loadURL(rendererPageUrl(init.origin, path));
      handleSecondInstance(current);
      return;
    }
    if (current !== null) discard(current);
    make(run, path, false);
  };

  const runReady = (run: number): void => {
    readyRun = run;
    const asked = wanted;
    wanted = null;
    const old = live();
    if (old === null || windowRun === run) {
      if (asked !== null) open(asked.path);
      return;
    }
    // A window of an earlier run: replaced whole, where it was, on the page it showed (or the one asked for).
    const path = asked !== null ? asked.path : pageOf(old.webContents.getURL(), init.origin);
    const hidden = asked === null && !old.isVisible();
    const bounds = old.getBounds();
    discard(old);
    make(run, path, hidden).setBounds(bounds);
  };

  const follow = (): void => {
    const run = init.service.verifiedRun();
    if (run === null || run === seenRun) return;
    seenRun = run;
    const report = (error: unknown) => init.onError(error);
    init
      .forgetOrigin(init.origin)
      .catch(report)
      .then(() => {
        // Lost again (or a newer run came) while forgetting: that run's turn.
        if (init.service.verifiedRun() === run) runReady(run);
      })
      .catch(report);
  };
  const unsubscribe = init.service.onStateChange(follow);
  follow();

  return {
    open,
    window: live,
    isTrusted(webContentsId) {
      const run = ready();
      const current = live();
      return run !== null && current !== null && windowRun === run && current.webContents.id === webContentsId;
    },
    allowsRequest(url) {
      let origin: string;
      try {
        origin = new URL(url).origin;
      } catch {
        return true;
      }
      return origin !== init.origin || ready() !== null;
    },
    stop: unsubscribe,
  };
}

/** The renderer page a URL shows (path and query), or undefined (the root) for anything else. */
function pageOf(url: string, origin: string): string | undefined {
  if (!isRendererUrl(url, origin)) return undefined;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
