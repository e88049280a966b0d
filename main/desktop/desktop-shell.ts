import { watchServiceContent, type FolderMonitor } from './folder-monitor.js';
import type { LaunchAtLogin } from './launch-at-login.js';
import { createLinkRouter, type LinkRouter } from './link-routing.js';
import { localApi, type ConnectionSource, type LocalApi } from './local-api.js';
import type { NotificationTarget } from './notifications.js';
import type { ServiceStatusSource } from './service-status.js';
import { watchForNotifications } from './shell-notifications.js';
import { startTrayController, type TrayController, type TrayView } from './tray-controller.js';

/**
 * Everything the user sees of the running app apart from the window's pages: the tray, the
 * notifications and the ipfs:// links, put together over the service's status and its local API.
 * Electron comes in only through `ShellHost` (built in main.ts), so the whole shell runs in tests.
 */
export interface ShellHost {
  trayView: TrayView;
  notify(notification: { title: string; body: string; onClick: () => void }): void;
  /** Shows the window (creating it if needed), on a renderer page when one is given. */
  openWindow(path?: string): void;
  pickFolder(): Promise<string | null>;
  /** Opens a folder in the file manager, or a file with its default app; rejects with the OS's reason. */
  openPath(path: string): Promise<void>;
  copyText(text: string): Promise<void>;
  openExternal(url: string): Promise<void>;
  quit(): void;
}

export interface ShellInit {
  host: ShellHost;
  status: ServiceStatusSource;
  /** The service's URL and the owner key while it runs. */
  connection: ConnectionSource;
  /** Starts the service again after the supervisor gave up on it (the tray's "Start Pinfold again"). */
  restartService(): void;
  /** Whether the gateway answers without a key (--public-gateway). */
  publicGateway(): boolean;
  dataDir: string;
  launchAtLogin: LaunchAtLogin;
  onError: (error: unknown) => void;
  /** Tests make the API and the redraw their own; the app leaves them out. */
  api?: LocalApi;
  redrawMs?: number;
}

export interface Shell {
  readonly api: LocalApi;
  readonly content: FolderMonitor;
  readonly tray: TrayController;
  readonly links: LinkRouter;
  /** Folders the window may open in the file manager: the data folder and every sync folder. */
  openableRoots(): string[];
  stop(): void;
}

export function startShell(init: ShellInit): Shell {
  const { host } = init;
  const api = init.api ?? localApi(init.connection);
  const content = watchServiceContent({ api, status: init.status, onError: init.onError });
  const gatewayOrigin = () => {
    const connection = init.status.current().state === 'running' ? init.connection() : null;
    return connection === null ? null : new URL(connection.url).origin;
  };

  const tray = startTrayController({
    view: host.trayView,
    status: init.status,
    content,
    api,
    launchAtLogin: init.launchAtLogin,
    gatewayOrigin,
    redrawMs: init.redrawMs,
    onError: init.onError,
    effects: {
      openWindow: () => host.openWindow(),
      pickFolder: () => host.pickFolder(),
      openFolder: (path) => host.openPath(path),
      copyText: (text) => host.copyText(text),
      openInBrowser: () => openInBrowser(),
      failed: (title, message) => host.notify({ title, body: message, onClick: () => host.openWindow() }),
      quit: () => host.quit(),
      restartService: () => init.restartService(),
    },
  });

  /**
   * The app in the user's browser, signed in: the service writes a one-time sign-in page only this user
   * can read and the OS opens that file in the default browser, so no code is on the opener's command
   * line for `ps` to show (issue 22, item 1). The pages of one burst share one session (issue 22, item 5).
   */
  const openInBrowser = async (next?: string) => host.openPath(await api.signInPage(next));
  /** `path` of the app in the user's browser; the window (signed in already) if no page can be made. */
  const openSignedIn = (path: string) => {
    openInBrowser(path).catch((error: unknown) => {
      init.onError(error);
      host.openWindow(path);
    });
  };

  const links = createLinkRouter({
    gateway: () => {
      const origin = gatewayOrigin();
      return origin === null ? null : { origin, public: init.publicGateway() };
    },
    open: (target) => {
      if (target.open === 'browser') host.openExternal(target.url).catch(init.onError);
      else openSignedIn(target.path);
    },
    // Only our own words: the link's text is its author's (any program or web page can hand us a link).
    refused: (_link, reason) =>
      host.notify({ title: 'Pinfold cannot open this link', body: `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`, onClick: () => {} }),
  });
  const stopLinkFlush = init.status.onChange((status) => {
    if (status.state === 'running') links.flush();
  });

  const pageOf = (target: NotificationTarget) => (target.kind === 'sync-folder' ? `/sync/${encodeURIComponent(target.id)}` : undefined);
  const stopNotifications = watchForNotifications(init.status, content, (notification) =>
    host.notify({ title: notification.title, body: notification.body, onClick: () => host.openWindow(pageOf(notification.target)) }),
  );

  return {
    api,
    content,
    tray,
    links,
    openableRoots: () => [init.dataDir, ...(content.current().folders ?? []).map((folder) => folder.path)],
    stop() {
      stopNotifications();
      stopLinkFlush();
      tray.stop();
      content.stop();
    },
  };
}
