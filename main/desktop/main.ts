/**
 * The Electron entry. Kept thin: it only wires Electron's objects to the testable functions beside it
 * (window.ts, ipc.ts, lifecycle.ts, port.ts, desktop-service.ts). The service itself runs in a utility
 * process (desktop-service.ts, utility-service-process.ts); this process keeps windows, tray, menus,
 * dialogs, the keychain and IPC.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, session, shell, Tray, utilityProcess } from 'electron';
import { createLogger } from '../base/logger.js';
import { packageRoot } from '../base/package-root.js';
import { keychainService, osKeychainEntry } from '../secrets/keychain-entry.js';
import { createDesktopService, type DesktopService } from './desktop-service.js';
import { desktopConfig } from './desktop-config.js';
import { registerIpcHandlers } from './ipc.js';
import { quitAfterClose } from './lifecycle.js';
import { appMenuTemplate, trayMenuTemplate } from './menu.js';
import { choosePort } from './port.js';
import { TRAY_ICON_DATA_URL } from './tray-icon.js';
import { utilityServiceChild } from './utility-service-process.js';
import { createMainWindow, handleSecondInstance } from './window.js';

const logger = createLogger('info');
let service: DesktopService | null = null;
let mainWindow: BrowserWindow | null = null;
let tray: Tray | null = null;

function openWindow(): BrowserWindow | null {
  const serviceUrl = service?.url() ?? null;
  if (serviceUrl === null) return null;
  if (handleSecondInstance(mainWindow)) return mainWindow;
  const preloadPath = join(packageRoot(), 'dist', 'desktop', 'preload.cjs');
  mainWindow = createMainWindow(BrowserWindow, serviceUrl, preloadPath, {
    openExternal: (url) => void shell.openExternal(url),
  });
  mainWindow.on('closed', () => {
    mainWindow = null;
  });
  return mainWindow;
}

async function start(): Promise<void> {
  const base = desktopConfig(process.argv.slice(1));
  const config = { ...base, port: await choosePort(base.port, base.host) };
  if (config.port !== base.port) logger.warn('port taken, using a free one', { wanted: base.port });
  const running = createDesktopService({
    config,
    launch: (args) => utilityServiceChild((...fork) => utilityProcess.fork(...fork), join(packageRoot(), 'dist', 'main', 'cli.js'), args),
    keychain: { service: keychainService(), entry: osKeychainEntry },
    logger,
  });
  service = running;
  const started = new Promise<string>((resolve, reject) => {
    running.onStateChange((status) => {
      if (status.state === 'running' && status.url !== undefined) resolve(status.url);
      else if (status.state === 'crashed') reject(new Error(status.detail ?? 'the Pinfold service could not start'));
    });
  });
  running.supervisor.start();
  const serviceUrl = await started;
  logger.info(`Pinfold listening on ${serviceUrl}`);
  const serviceOrigin = new URL(serviceUrl).origin;

  // The renderer never needs camera, notifications, etc.; refuse every permission request.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  registerIpcHandlers(ipcMain, {
    serviceOrigin,
    ownerKey: () => running.ownerKey(),
    pickFolder: async () => {
      const options = { properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    openExternal: (url) => shell.openExternal(url),
  });

  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(process.platform)));
  const icon = nativeImage.createFromDataURL(TRAY_ICON_DATA_URL);
  icon.setTemplateImage(true);
  tray = new Tray(icon);
  tray.setToolTip('Pinfold');
  tray.setContextMenu(
    Menu.buildFromTemplate(
      trayMenuTemplate({
        openWindow: () => void openWindow(),
        openInBrowser: () => void shell.openExternal(`${serviceOrigin}/`),
        quit: () => app.quit(),
      }),
    ),
  );

  openWindow();
}

if (!app.requestSingleInstanceLock()) {
  // Another Pinfold is running; it receives 'second-instance' and shows its window.
  app.quit();
} else {
  app.enableSandbox();
  app.on('second-instance', () => void openWindow());
  app.on('activate', () => void openWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on(
    'before-quit',
    quitAfterClose(
      async () => {
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
