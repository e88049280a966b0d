import type { LaunchAtLogin } from './launch-at-login.js';

/**
 * Launch at login is a setting of the data folder (settings.json's `launch_at_login`, docs/settings.md): the
 * service keeps it and tells the app (its `desktop-settings` message, once it is ready and after every
 * change, whoever made it: the tray, the window, the API); the app brings the OS's login item in line.
 */

/**
 * Brings the login item in line with the saved choice; true when it changed it. Null (never chosen) leaves
 * the login item as it is, so that the choice an older Pinfold made through the login item alone stays.
 */
export async function applyLaunchAtLogin(saved: boolean | null, loginItem: LaunchAtLogin): Promise<boolean> {
  if (saved === null || (await loginItem.isEnabled()) === saved) return false;
  await loginItem.setEnabled(saved);
  return true;
}

/**
 * What the service says of launch at login, applied one after another in the order told (a fast on, off
 * ends off); `applied` is told after each one that changed the login item.
 */
export function launchAtLoginFollower(loginItem: LaunchAtLogin, applied: () => void, onError: (error: unknown) => void): (saved: boolean | null) => void {
  let queue: Promise<void> = Promise.resolve();
  return (saved) => {
    queue = queue
      .then(() => applyLaunchAtLogin(saved, loginItem))
      .then((changed) => {
        if (changed) applied();
      })
      .catch(onError);
  };
}

/**
 * The login item as the tray and the window change it: the choice is saved in the data folder first (through
 * the service), then applied, so that the next start does not undo it. A save that fails changes nothing.
 */
export function savingLaunchAtLogin(loginItem: LaunchAtLogin, save: (on: boolean) => Promise<void>): LaunchAtLogin {
  return {
    isEnabled: () => loginItem.isEnabled(),
    async setEnabled(on) {
      await save(on);
      await loginItem.setEnabled(on);
    },
  };
}
