/**
 * The update check (electron-updater). Off in development (`electron .`, not packaged) and when
 * PINFOLD_UPDATES=off; the feed is the one electron-builder wrote into the package (its `publish`
 * setting: GitHub releases), or PINFOLD_UPDATE_URL (an https URL of a generic feed: latest.yml and
 * the installers) for a mirror or a company's own server. It downloads in the background and asks
 * the OS to notify; installing waits for the next quit, never interrupting a sync.
 */
export type UpdatePlan = { enabled: false; reason: string } | { enabled: true; feedUrl: string | null };

export interface UpdatePlanInit {
  isPackaged: boolean;
  env: NodeJS.ProcessEnv;
}

export function updatePlan(init: UpdatePlanInit): UpdatePlan {
  if (!init.isPackaged) return { enabled: false, reason: 'a development run does not check for updates' };
  if (init.env.PINFOLD_UPDATES === 'off') return { enabled: false, reason: 'PINFOLD_UPDATES=off' };
  const url = init.env.PINFOLD_UPDATE_URL;
  if (url === undefined || url === '') return { enabled: true, feedUrl: null };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { enabled: false, reason: `PINFOLD_UPDATE_URL is not a URL: ${JSON.stringify(url)}` };
  }
  // Updates are code the app will run: only over https, and never with credentials in the URL.
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') {
    return { enabled: false, reason: 'PINFOLD_UPDATE_URL must be an https URL without credentials' };
  }
  return { enabled: true, feedUrl: parsed.toString() };
}

/** The part of electron-updater's autoUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
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
  if (plan.feedUrl !== null) updater.setFeedURL({ provider: 'generic', url: plan.feedUrl });
  const check = () => void updater.checkForUpdatesAndNotify().catch(onError);
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
