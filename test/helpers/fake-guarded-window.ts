import type { Rectangle } from 'electron';
import type { GuardedWindow } from '../../main/desktop/window-guard.js';

/** A hand-written BrowserWindow stand-in for the window guard (window-guard.ts): records what the guard does to it. */
export class FakeWindow implements GuardedWindow {
  static nextId = 1;
  readonly webContents: { readonly id: number; getURL(): string };
  readonly loaded: string[] = [];
  readonly calls: string[] = [];
  url: string;
  visible: boolean;
  destroyed = false;
  bounds: Rectangle = { x: 0, y: 0, width: 1080, height: 760 };
  private closed: (() => void) | null = null;

  constructor(
    origin: string,
    readonly page: { path: string | undefined; hidden: boolean },
  ) {
    const id = FakeWindow.nextId++;
    this.url = `${origin}${page.path ?? '/'}`;
    this.visible = !page.hidden;
    this.webContents = { id, getURL: () => this.url };
  }
  isDestroyed() {
    return this.destroyed;
  }
  isVisible() {
    return this.visible;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  show() {
    this.calls.push('show');
    this.visible = true;
  }
  focus() {
    this.calls.push('focus');
  }
  destroy() {
    this.destroyed = true;
    this.closed?.();
  }
  getBounds() {
    return this.bounds;
  }
  setBounds(bounds: Rectangle) {
    this.bounds = bounds;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
    this.url = url;
  }
  once(_event: 'closed', listener: () => void) {
    this.closed = listener;
  }
  /** The user closing it for good (on quit). */
  close() {
    this.destroy();
  }
}
