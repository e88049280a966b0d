import { tuneHeapForIdle } from './heap-tuning.js';
import { createApp, type PinfoldApp } from '../app/create-app.js';
import { defaultDataDir, type ServiceConfig } from '../base/config.js';
import type { Logger } from '../base/logger.js';
import { keychainService, osKeychainEntry, type KeychainAccess } from '../secrets/keychain-entry.js';
import type { ParentChannel } from './parent-channel.js';
import { remoteKeychain } from './remote-keychain.js';
import { takeRunToken } from './run-token.js';

export interface RunServiceInit {
  config: ServiceConfig;
  /** `--keychain`: a new data folder keeps its secrets in the keychain (an existing folder's record wins). */
  preferKeychain: boolean;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** Standard output: the lines a user (or a script) reads. */
  print(text: string): void;
  /**
   * Standard output is a terminal: a person reads it there and nothing keeps it, so a live sign-in link
   * may be printed. Anywhere else (a log file, the journal, a pipe) it would outlive its moment.
   */
  interactive: boolean;
  /** The process that started this one, if any (the desktop's main process, a test). */
  channel: ParentChannel | null;
  exit(code: number): void;
  /** Signals to stop on. */
  onSignal(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
}

/**
 * The service process: what `pinfold serve` runs from a shell and what the desktop app runs in its
 * utility process. Under a parent it takes the keychain from the parent, announces its URL with a
 * `ready` message, reports a failed start with `fatal` (so the parent does not restart it into the same
 * failure), and stops on the parent's `stop` as on SIGTERM: app.close() settles every write, closes the
 * database and releases the data folder, then the process exits 0.
 */
export async function runService(init: RunServiceInit): Promise<void> {
  const { config, logger, channel } = init;
  tuneHeapForIdle();
  // Signals and the parent's stop are taken over before anything starts, so a stop at any moment (even
  // while the app is still opening) shuts down cleanly, and a repeated one cannot kill it half-way.
  let app: PinfoldApp | null = null;
  let stopping: string | null = null;
  const stop = (reason: string): void => {
    if (stopping !== null) return;
    stopping = reason;
    logger.info(`received ${reason}, shutting down`);
    if (!app) return;
    app.close().then(
      () => init.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        init.exit(1);
      },
    );
  };
  init.onSignal('SIGINT', () => stop('SIGINT'));
  init.onSignal('SIGTERM', () => stop('SIGTERM'));
  channel?.onMessage((message) => {
    if (message.type === 'stop') stop('stop from the desktop app');
  });
  channel?.onDisconnect(() => stop('the parent process going away'));

  const keychain: KeychainAccess = { service: keychainService(init.env), entry: channel ? remoteKeychain(channel) : osKeychainEntry };
  let url: string;
  try {
    const runToken = takeRunToken(init.env);
    app = await createApp({
      config,
      logger,
      env: init.env,
      secrets: { prefer: init.preferKeychain ? 'keychain' : 'file', keychain },
      ...(runToken !== undefined ? { runToken } : {}),
    });
    try {
      url = await app.listen();
    } catch (error) {
      // A port already in use must not leave the data folder locked, nor the process hanging on open handles.
      await app.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    if (channel) {
      await channel.send({ type: 'fatal', message: error instanceof Error ? error.message : String(error) }).catch(() => undefined);
      channel.close();
    }
    throw error;
  }
  if (stopping !== null) {
    const reason = stopping;
    stopping = null;
    stop(reason);
    return;
  }
  if (app.secretsNote !== null) logger.warn(app.secretsNote);
  if (app.ownerKeyCreated) init.print(`Owner access key written to ${app.ownerKeyLocation}\n`);
  // Several instances on one database (--db): where the shared master key and the owner key are.
  for (const note of app.sharedNotes) init.print(`${note}\n`);
  init.print(`Pinfold listening on ${url}\n`);
  init.print(`Sign in: ${signInLine(app, init.interactive)}\n`);
  await channel?.send({ type: 'ready', url });
  if (channel) tellDesktopSettings(app, channel, logger);
}

/**
 * The desktop app applies what the settings say of it (launch at login): told now, and after each change
 * through the API, for as long as the service runs (the app stops listening when the process ends).
 */
function tellDesktopSettings(app: PinfoldApp, channel: ParentChannel, logger: Logger): void {
  const tell = (launchAtLogin: boolean | null): void =>
    void channel
      .send({ type: 'desktop-settings', launchAtLogin })
      .catch((error: unknown) => logger.warn('could not tell the desktop app its settings', { error }));
  tell(app.settings.current().launch_at_login);
  app.settings.onChange((current, before) => {
    if (current.launch_at_login !== before.launch_at_login) tell(current.launch_at_login);
  });
}

/**
 * What follows `Sign in:`. At a terminal, a one-time link (a code, never the secret, as Jupyter prints its
 * token URL), which opens the window signed in as the owner; elsewhere the command that makes one, since
 * output that is kept (a log, the journal) must hold no code that still works (issue 22, item 1).
 */
function signInLine(app: PinfoldApp, interactive: boolean): string {
  if (interactive) return app.issueSignInCode().url;
  const dataDir = app.config.dataDir === defaultDataDir() ? '' : ` --data ${shellWord(app.config.dataDir)}`;
  return `run \`pinfold open${dataDir}\` for a one-time link (a link is printed only to a terminal)`;
}

/** A path as one word of a POSIX shell command: as it is when plain, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
