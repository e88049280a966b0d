import type { FolderMonitor } from './folder-monitor.js';
import type { ServiceStatusSource } from './service-status.js';
import { trayMenu, type TrayMenuItem } from './tray-menu.js';
import { trayIconState, trayStatusLine, type TrayIconState } from './tray-status.js';

/** Where the tray is drawn: Electron's Tray in the app, a recorder in the tests. */
export interface TrayView {
  show(view: { icon: TrayIconState; tooltip: string; menu: TrayMenuItem[] }): void;
}

/** What the tray shows that neither the service status nor the folders say. */
export interface TrayFlags {
  /** Null while unknown (not read yet, or the read failed). */
  launchAtLogin: boolean | null;
  /** A garbage collection asked from the tray is running: its item is disabled. */
  collectingGarbage: boolean;
}

export interface TrayDrawingInit {
  view: TrayView;
  status: ServiceStatusSource;
  content: FolderMonitor;
  gatewayOrigin(): string | null;
}

/**
 * Draws the tray (icon, one-line tooltip and menu) from the service status, the folders and its flags, at
 * most once every `redrawMs` however many changes ask for it; nothing once stopped.
 */
export class TrayDrawing {
  readonly flags: TrayFlags = { launchAtLogin: null, collectingGarbage: false };
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly init: TrayDrawingInit,
    private readonly redrawMs: number,
  ) {}

  readonly draw = (): void => {
    this.timer = null;
    if (this.stopped) return;
    const service = this.init.status.current();
    const { folders } = this.init.content.current();
    const { launchAtLogin, collectingGarbage } = this.flags;
    this.init.view.show({
      icon: trayIconState(service, folders),
      tooltip: trayStatusLine(service, folders),
      menu: trayMenu(service, folders, { launchAtLogin, gatewayOrigin: this.init.gatewayOrigin(), collectingGarbage }),
    });
  };

  /** Redraw soon. */
  readonly invalidate = (): void => {
    if (this.stopped || this.timer !== null) return;
    this.timer = setTimeout(this.draw, this.redrawMs);
  };

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}
