import type { PreferencesStore } from './shell-preferences.js';

/**
 * Closing the window hides it, on every platform: Pinfold is a background app, and syncing must not
 * stop because a window went away. Only a real quit (tray or app menu Quit, the OS logging out or
 * shutting down) lets the window close.
 */
export interface HideableWindow {
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  hide(): void;
}

export interface CloseToTrayInit {
  /** True once the app is quitting (before-quit, session end). */
  isQuitting(): boolean;
  /** Called after each hide. */
  hidden(): void;
}

export function keepRunningOnClose(win: HideableWindow, init: CloseToTrayInit): void {
  win.on('close', (event) => {
    if (init.isQuitting()) return;
    event.preventDefault();
    win.hide();
    init.hidden();
  });
}

/**
 * The notice that closing keeps Pinfold running, shown the first time the window is hidden and never
 * again (remembered in the preferences; once per run also when saving fails). Returns the `hidden` hook.
 */
export function closeNoticeOnce(store: PreferencesStore, notify: () => void, onError: (error: unknown) => void = () => {}): () => void {
  let decided = false;
  return () => {
    if (decided) return;
    decided = true;
    void (async () => {
      const preferences = await store.load();
      if (preferences.closeNoticeShown) return;
      notify();
      await store.save({ ...preferences, closeNoticeShown: true });
    })().catch(onError);
  };
}
