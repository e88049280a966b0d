import { describe, expect, it } from 'vitest';
import type { LaunchAtLogin } from '../../../main/desktop/launch-at-login.js';
import { applyLaunchAtLogin, launchAtLoginFollower, savingLaunchAtLogin } from '../../../main/desktop/launch-at-login-setting.js';
import { until } from '../../helpers/until.js';

/** A login item that remembers what it was set to. */
function loginItem(enabled = false): LaunchAtLogin & { enabled: boolean; sets: boolean[] } {
  const item = {
    enabled,
    sets: [] as boolean[],
    isEnabled: async () => item.enabled,
    setEnabled: async (on: boolean) => {
      item.sets.push(on);
      item.enabled = on;
    },
  };
  return item;
}

describe("launch at login, the data folder's setting applied to the OS's login item", () => {
  it('brings the login item in line with the saved choice, and leaves it alone when none was made', async () => {
    const item = loginItem(true);
    expect(await applyLaunchAtLogin(null, item)).toBe(false);
    expect(await applyLaunchAtLogin(true, item)).toBe(false);
    expect(item.sets).toEqual([]);
    expect(await applyLaunchAtLogin(false, item)).toBe(true);
    expect(item.enabled).toBe(false);
  });

  it('follows what the service tells, in order, and says when it changed the login item', async () => {
    const item = loginItem(false);
    let applied = 0;
    const errors: unknown[] = [];
    const follow = launchAtLoginFollower(
      item,
      () => applied++,
      (error) => errors.push(error),
    );
    follow(true);
    follow(false);
    follow(true);
    await until('the three changes applied', () => (item.sets.length === 3 ? true : undefined), 5000);
    expect(item.sets).toEqual([true, false, true]);
    expect(applied).toBe(3);
    const broken: LaunchAtLogin = { isEnabled: async () => false, setEnabled: async () => Promise.reject(new Error('no autostart folder')) };
    const followBroken = launchAtLoginFollower(
      broken,
      () => applied++,
      (error) => errors.push(error),
    );
    followBroken(true);
    followBroken(false);
    await until('the failure told', () => (errors.length === 1 ? true : undefined), 5000);
    expect(applied).toBe(3);
  });

  it('saves a change made from the tray or the window before it applies it; a save that fails changes nothing', async () => {
    const item = loginItem(false);
    const saved: boolean[] = [];
    const setting = savingLaunchAtLogin(item, async (on) => {
      saved.push(on);
    });
    await setting.setEnabled(true);
    expect(saved).toEqual([true]);
    expect(item.enabled).toBe(true);
    expect(await setting.isEnabled()).toBe(true);
    const refused = savingLaunchAtLogin(item, async () => Promise.reject(new Error('the Pinfold service is not running')));
    await expect(refused.setEnabled(false)).rejects.toThrow(/not running/);
    expect(item.enabled).toBe(true);
  });
});
