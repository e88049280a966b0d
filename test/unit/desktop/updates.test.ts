import { describe, expect, it } from 'vitest';
import { startUpdateChecks, updatePlan, type UpdaterLike } from '../../../main/desktop/updates.js';
import { deferred } from '../../helpers/deferred.js';

describe('updatePlan', () => {
  it('off when turned off, and in development without a feed to try', () => {
    expect(updatePlan({ isPackaged: false, env: {} })).toEqual({
      enabled: false,
      reason: 'a development run does not check for updates (PINFOLD_UPDATE_URL names a feed to try)',
    });
    expect(updatePlan({ isPackaged: true, env: { PINFOLD_UPDATES: 'off' } })).toEqual({ enabled: false, reason: 'PINFOLD_UPDATES=off' });
    expect(updatePlan({ isPackaged: false, env: { PINFOLD_UPDATES: 'off', PINFOLD_UPDATE_URL: 'https://u.example/' } }).enabled).toBe(false);
  });

  it("an installed app takes only the package's own feed: PINFOLD_UPDATE_URL is ignored, and said so", () => {
    expect(updatePlan({ isPackaged: true, env: {} })).toEqual({ enabled: true, feedUrl: null });
    expect(updatePlan({ isPackaged: true, env: { PINFOLD_UPDATE_URL: 'https://updates.example.com/pinfold/' } })).toEqual({
      enabled: true,
      feedUrl: null,
      note: 'PINFOLD_UPDATE_URL is ignored: an installed app takes updates only from the feed built into it',
    });
  });

  it('a development run tries the https feed PINFOLD_UPDATE_URL names', () => {
    expect(updatePlan({ isPackaged: false, env: { PINFOLD_UPDATE_URL: 'https://updates.example.com/pinfold/' } })).toEqual({
      enabled: true,
      feedUrl: 'https://updates.example.com/pinfold/',
    });
  });

  it.each([
    ['plain http', 'http://updates.example.com/'],
    ['credentials in the URL', 'https://user:pw@updates.example.com/'],
    ['a file URL', 'file:///tmp/feed'],
    ['not a URL', 'updates.example.com'],
  ])('refuses a feed over %s, and checks nothing', (_what, url) => {
    const plan = updatePlan({ isPackaged: false, env: { PINFOLD_UPDATE_URL: url } });
    expect(plan.enabled).toBe(false);
  });
});

describe('startUpdateChecks', () => {
  function fakeUpdater(result: Promise<unknown> = Promise.resolve(null)) {
    const calls: unknown[] = [];
    const updater: UpdaterLike = {
      autoDownload: false,
      autoInstallOnAppQuit: false,
      forceDevUpdateConfig: false,
      setFeedURL: (options) => void calls.push(['feed', options]),
      checkForUpdatesAndNotify: () => (calls.push(['check']), result),
    };
    return { updater, calls };
  }

  it('sets the feed when one is given (a development run, which electron-updater skips unless forced), checks at once and installs on quit', () => {
    const { updater, calls } = fakeUpdater();
    const stop = startUpdateChecks(updater, { enabled: true, feedUrl: 'https://u.example/' }, () => {});
    stop();
    expect(calls).toEqual([['feed', { provider: 'generic', url: 'https://u.example/' }], ['check']]);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updater.forceDevUpdateConfig).toBe(true);
  });

  it("keeps the package's feed when none is given, and reports a failed check", async () => {
    const { updater, calls } = fakeUpdater(Promise.reject(new Error('feed unreachable')));
    const errors: unknown[] = [];
    const reported = deferred();
    const stop = startUpdateChecks(updater, { enabled: true, feedUrl: null }, (error) => (errors.push(error), reported.resolve()));
    await reported.promise;
    stop();
    expect(calls).toEqual([['check']]);
    expect(updater.forceDevUpdateConfig).toBe(false);
    expect((errors[0] as Error).message).toBe('feed unreachable');
  });
});
