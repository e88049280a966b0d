/**
 * The update check (electron-updater). An installed app checks the feed electron-builder wrote into the
 * package (its `publish` setting: GitHub releases) and no other: updates are code the app will run, and a
 * variable in the environment (set by whoever starts the app: a shortcut, a login script, another
 * program) must not be able to send it elsewhere. PINFOLD_UPDATES=off turns the checks off. A development
 * run (`electron .`, not packaged) checks nothing, unless PINFOLD_UPDATE_URL (an https URL of a generic
 * feed: latest.yml and the installers) points it at a feed to try. It downloads in the background and
 * asks the OS to notify; installing waits for the next quit, never interrupting a sync.
 */
export type UpdatePlan = { enabled: false; reason: string } | { enabled: true; feedUrl: string | null; note?: string };

export interface UpdatePlanInit {
  isPackaged: boolean;
  env: NodeJS.ProcessEnv;
}

export function updatePlan(init: UpdatePlanInit): UpdatePlan {
  if (init.env.PINFOLD_UPDATES === 'off') return { enabled: false, reason: 'PINFOLD_UPDATES=off' };
  const url = init.env.PINFOLD_UPDATE_URL;
  const override = url !== undefined && url !== '';
  if (init.isPackaged) {
    return override
      ? { enabled: true, feedUrl: null, note: 'PINFOLD_UPDATE_URL is ignored: an installed app takes updates only from the feed built into it' }
      : { enabled: true, feedUrl: null };
  }
  if (!override) return { enabled: false, reason: 'a development run does not check for updates (PINFOLD_UPDATE_URL names a feed to try)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { enabled: false, reason: `PINFOLD_UPDATE_URL is not a URL: ${JSON.stringify(url)}` };
  }
  // Only over https, and never with credentials in the URL.
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') {
    return { enabled: false, reason: 'PINFOLD_UPDATE_URL must be an https URL without credentials' };
  }
  return { enabled: true, feedUrl: parsed.toString() };
}

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  /** electron-updater checks nothing in a development run unless this is set. */
  forceDevUpdateConfig: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdatesAndNotify(): Promise<unknown>;
}

export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Checks now and every interval; answers a function that stops the checks. */
export function startUpdateChecks(
  updater: UpdaterLike,
  plan: Extract<UpdatePlan, { enabled: true }>,
  onError: (error: unknown) => void,
  intervalMs = UPDATE_CHECK_INTERVAL_MS,
): () => void {
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  // A feed is named only in a development run (updatePlan), which electron-updater skips unless forced.
  if (plan.feedUrl !== null) {
    updater.forceDevUpdateConfig = true;
    updater.setFeedURL({ provider: 'generic', url: plan.feedUrl });
  }
  const check = () => void updater.checkForUpdatesAndNotify().catch(onError);
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
