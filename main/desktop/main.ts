/**
 * The Electron entry. Kept thin: it only wires Electron's objects to the testable functions beside it
 * (window.ts, window-guard.ts, session-policy.ts, ipc.ts, lifecycle.ts, port.ts, desktop-service.ts,
 * desktop-shell.ts and its parts). The
 * service itself runs in a utility process (desktop-service.ts, utility-service-process.ts); this
 * process keeps windows, tray, menus, dialogs, notifications, the keychain and IPC.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, Notification, session, shell, Tray, utilityProcess } from 'electron';
import { createLogger } from '../base/logger.js';
import { packageRoot } from '../base/package-root.js';
import { keychainService, osKeychainEntry } from '../secrets/keychain-entry.js';
import { closeNoticeOnce, keepRunningOnClose } from './close-to-tray.js';
import { createDesktopService, type DesktopService } from './desktop-service.js';
import { startShell, type Shell } from './desktop-shell.js';
import { desktopConfig, desktopServicePlan } from './desktop-config.js';
import { electronShellHost } from './electron-host.js';
import { openableFolder } from './folder-access.js';
import { registerIpcHandlers } from './ipc.js';
import { keychainKeySecrets } from './key-secrets.js';
import { launchAtLogin, startedAtLogin } from './launch-at-login.js';
import { launchAtLoginFollower, savingLaunchAtLogin } from './launch-at-login-setting.js';
import { quitAfterClose } from './lifecycle.js';
import { localApi } from './local-api.js';
import { appMenuTemplate } from './menu.js';
import { choosePort } from './port.js';
import { isProtocolLink, LINK_SCHEMES } from './protocol-links.js';
import { applySessionPolicy, forgetOrigin } from './session-policy.js';
import { preferencesFile } from './shell-preferences.js';
import { trayIconDir, trayIconFile } from './tray-icons.js';
import { startUpdateChecks, updatePlan } from './updates.js';
import { utilityServiceChild } from './utility-service-process.js';
import { createMainWindow } from './window.js';
import { createWindowGuard, type WindowGuard } from './window-guard.js';

const logger = createLogger('info');
const keychain = { service: keychainService(), entry: osKeychainEntry };
let service: DesktopService | null = null;
/** The window, once the service first ran: it opens only on a verified run of the service (window-guard.ts). */
let windows: WindowGuard<BrowserWindow> | null = null;
let tray: Tray | null = null;
let desktopShell: Shell | null = null;
let quitting = false;
let trayTooltip = '';
const earlyLinks: string[] = [];

const loginItems = launchAtLogin({ platform: process.platform, loginItems: app, execPath: process.execPath, env: process.env, homeDir: homedir() });
const followLaunchAtLogin = launchAtLoginFollower(
  loginItems,
  () => desktopShell?.tray.invalidate(),
  (error) => logger.warn('could not apply launch at login', { error }),
);
const preferences = preferencesFile(join(app.getPath('userData'), 'desktop.json'));

function notify(options: { title: string; body: string }, onClick: () => void = () => {}): void {
  if (!Notification.isSupported()) return;
  const notification = new Notification(options);
  notification.on('click', onClick);
  notification.show();
}

const closeNotice = closeNoticeOnce(
  preferences,
  () => notify({ title: 'Pinfold keeps syncing', body: 'Pinfold is still running in the tray. Quit it from the tray menu.' }, () => openWindow()),
  (error) => logger.warn('could not remember the close notice', { error }),
);

function openWindow(path?: string): void {
  windows?.open(path);
}

function makeWindow(serviceUrl: string, page: { path: string | undefined; hidden: boolean }): BrowserWindow {
  const preloadPath = join(packageRoot(), 'dist', 'desktop', 'preload.cjs');
  const win = createMainWindow(BrowserWindow, serviceUrl, preloadPath, {
    packaged: app.isPackaged,
    openExternal: (url) => void shell.openExternal(url),
    path: page.path,
    startHidden: page.hidden,
  });
  keepRunningOnClose(win, { isQuitting: () => quitting, hidden: closeNotice });
  // Windows logging off or shutting down: let the window close instead of hiding it.
  win.on('session-end', () => (quitting = true));
  return win;
}

/** Starts the service process and resolves with its URL once it runs; rejects when it could not start. */
async function startService(): Promise<{ running: DesktopService; url: string; publicGateway: boolean; dataDir: string }> {
  const base = desktopConfig(process.argv.slice(1));
  const plan = await desktopServicePlan(base);
  const port = await choosePort(plan.preferredPort, base.host);
  if (port !== plan.preferredPort) logger.warn('port taken, using a free one', { wanted: plan.preferredPort });
  const running = createDesktopService({
    config: { dataDir: base.dataDir, port, portPinned: plan.portPinned, publicGateway: plan.publicGatewayFlag },
    launch: (args, env) => utilityServiceChild((...fork) => utilityProcess.fork(...fork), join(packageRoot(), 'dist', 'main', 'cli', 'main.js'), args, env),
    keychain,
    logger,
    // The data folder's launch at login, applied to the login item as the service tells it.
    onDesktopSettings: ({ launchAtLogin }) => followLaunchAtLogin(launchAtLogin),
  });
  service = running;
  const started = new Promise<string>((resolve, reject) => {
    const stop = running.onStateChange((status) => {
      if (status.state === 'running' && status.url !== undefined) resolve(status.url);
      else if (status.state === 'crashed') reject(new Error(status.detail ?? 'the Pinfold service could not start'));
      else return;
      stop();
    });
  });
  running.supervisor.start();
  return { running, url: await started, publicGateway: plan.publicGateway, dataDir: base.dataDir };
}

async function start(): Promise<void> {
  const { running, url, publicGateway, dataDir } = await startService();
  logger.info(`Pinfold listening on ${url}`);
  // A restarted service keeps its port, so the window keeps this origin.
  const serviceOrigin = new URL(url).origin;
  const guard = createWindowGuard({
    origin: serviceOrigin,
    service: running,
    create: (page) => makeWindow(url, page),
    forgetOrigin: (origin) => forgetOrigin(session.defaultSession, origin),
    onError: (error) => logger.warn('preparing the window for the service', { error }),
  });
  windows = guard;
  applySessionPolicy(session.defaultSession, { serviceOrigin, allowsRequest: (target) => guard.allowsRequest(target) });

  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform, app.isPackaged)));
  const iconDir = trayIconDir({ isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, appRoot: packageRoot() });
  const appTray = new Tray(trayIconFile(iconDir, process.platform, 'idle'));
  tray = appTray;
  const host = electronShellHost(
    {
      tray: {
        setImage: (image) => appTray.setImage(image),
        setToolTip: (text) => appTray.setToolTip((trayTooltip = text)),
        setContextMenu: (menu: Menu) => appTray.setContextMenu(menu),
      },
      buildMenu: (template) => Menu.buildFromTemplate(template),
      trayIconFile: (state) => trayIconFile(iconDir, process.platform, state),
      showNotification: notify,
      showOpenDialog: (options) => dialog.showOpenDialog(options),
      openPath: (path) => shell.openPath(path),
      openExternal: (target) => shell.openExternal(target),
      writeClipboard: async (text) => clipboard.writeText(text),
      openWindow,
      quit: () => app.quit(),
    },
    (action) => void desktopShell?.tray.run(action),
  );
  const connection = () => {
    const current = running.url();
    const ownerKey = running.ownerKey();
    return current === null || ownerKey === null ? null : { url: current, ownerKey };
  };
  const api = localApi(connection);
  // The tray's and the window's switch save the choice in the data folder, then apply it.
  const launchAtLoginSetting = savingLaunchAtLogin(loginItems, async (on) => {
    await api.saveSettings({ launch_at_login: on });
  });
  // The tray and the notifications follow the supervisor's status (restarting, crashed, running again).
  desktopShell = startShell({
    host,
    status: running,
    restartService: () => running.supervisor.start(),
    connection,
    api,
    publicGateway: () => publicGateway,
    dataDir,
    launchAtLogin: launchAtLoginSetting,
    onError: (error) => logger.warn('desktop shell', { error }),
  });
  const started = desktopShell;
  // macOS: a folder dropped on the menu-bar icon starts syncing.
  appTray.on('drop-files', (_event, files) => void started.tray.addFolders(files));

  registerIpcHandlers(ipcMain, {
    serviceOrigin,
    isTrustedWindow: (id) => guard.isTrusted(id),
    ownerKey: () => running.ownerKey(),
    pickFolder: async () => {
      const options = { properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const parent = guard.window();
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    openExternal: (target) => shell.openExternal(target),
    keySecrets: keychainKeySecrets({ dataDir, ...keychain }),
    launchAtLogin: {
      isEnabled: () => launchAtLoginSetting.isEnabled(),
      setEnabled: async (on) => {
        await launchAtLoginSetting.setEnabled(on);
        started.tray.invalidate();
      },
    },
    openFolder: async (path) => {
      const folder = await openableFolder(path, started.openableRoots());
      if (folder === null) return false;
      const failure = await shell.openPath(folder);
      return failure === '';
    },
    appVersion: app.getVersion(),
  });

  for (const link of earlyLinks.splice(0)) started.links.handle(link);
  started.links.handleArgv(process.argv);
  if (!startedAtLogin(process.argv, process.platform, app)) openWindow();

  const plan = updatePlan({ isPackaged: app.isPackaged, env: process.env });
  if (plan.enabled) {
    if (plan.note !== undefined) logger.warn(`updates: ${plan.note}`);
    const { autoUpdater } = (await import('electron-updater')).default;
    startUpdateChecks(autoUpdater, plan, (error) => logger.warn('update check failed', { error }));
  } else logger.info(`updates: ${plan.reason}`);
}

// The Electron smoke test (test/electron/) reads the tray through this; nothing else sets PINFOLD_SMOKE_TEST.
if (process.env.PINFOLD_SMOKE_TEST === '1') {
  Object.assign(globalThis, { pinfoldSmoke: { tray: () => ({ exists: tray !== null && !tray.isDestroyed(), tooltip: trayTooltip }) } });
}

if (!app.requestSingleInstanceLock()) {
  // Another Pinfold is running; it receives 'second-instance' (with this argv and its links).
  app.quit();
} else {
  app.enableSandbox();
  // Windows shows notifications only for an app with an AppUserModelID: the one the installer gives its shortcut.
  if (process.platform === 'win32') app.setAppUserModelId('org.pinfold.app');
  if (app.isPackaged) for (const scheme of LINK_SCHEMES) app.setAsDefaultProtocolClient(scheme);
  app.on('second-instance', (_event, argv) => {
    const links = argv.filter(isProtocolLink);
    if (links.length === 0) openWindow();
    else if (desktopShell !== null) desktopShell.links.handleArgv(links);
    else earlyLinks.push(...links);
  });
  // macOS hands links over with open-url, also before the app is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault();
    if (desktopShell !== null) desktopShell.links.handle(url);
    else earlyLinks.push(url);
  });
  app.on('activate', () => openWindow());
  // Closing the window hides it; Pinfold keeps running in the tray until Quit.
  app.on('window-all-closed', () => {});
  app.on('before-quit', () => (quitting = true));
  app.on(
    'before-quit',
    quitAfterClose(
      async () => {
        // The shell first, so that the service stopping on purpose is neither drawn nor told as a crash.
        desktopShell?.stop();
        tray?.destroy();
        await service?.supervisor.stop();
      },
      () => app.quit(),
      (error) => logger.error('closing the service failed', { error }),
    ),
  );
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      logger.error('Pinfold could not start', { error });
      dialog.showErrorBox('Pinfold could not start', message);
      app.exit(1);
    });
}
