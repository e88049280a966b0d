import { createApp, type PinfoldApp } from './app.js';
import { defaultDataDir } from './base/config.js';
import { DataFolderLockedError } from './base/lock-file.js';
import { createLogger } from './base/logger.js';
import { parseArgs, serveConfig, UsageError, type ParsedArgs } from './cli-args.js';
import { accountCommand } from './cli-account.js';
import { gcCommand } from './cli-gc.js';
import { OPEN_USAGE, openCommand } from './cli-open.js';
import { SYNC_USAGE, syncCommand } from './cli-sync.js';

const USAGE = `Usage: pinfold <command> [--data DIR]

  serve [--port N] [--host H] [--gc-interval S] [--gc-grace S] [--ts-window S]
        [--dns-resolver HOST:PORT] [--public-gateway] [--allow-origin ORIGIN]...
        [--cid-profile unixfs-v1-2025|unixfs-v0-2015]
                                   run the service (default port 5080); --cid-profile picks
                                   how new content is laid out (unixfs-v0-2015: Kubo's legacy
                                   CIDv0 defaults, as gw3 uses)
  account list                     list accounts (uuid, plan, partner flag, balance)
  account partner <uuid> on|off    mark an account as a qualified partner or not
  account credit <uuid> <amount>   add to an account's balance, e.g. 25.00
  gc [--gc-grace S]                one garbage-collection cycle (asks the running server, if any)
${OPEN_USAGE}
${SYNC_USAGE}

Data folder (default ${defaultDataDir()}) is shared with the desktop app.`;

async function serve(args: ParsedArgs): Promise<void> {
  const config = serveConfig(args);
  const logger = createLogger(process.env.PINFOLD_LOG === 'debug' ? 'debug' : 'info');
  // Signals are taken over before anything starts, so a SIGTERM at any moment (even while the app is
  // still opening) shuts down cleanly, and a repeated one during shutdown cannot kill it half-way.
  let app: PinfoldApp | null = null;
  let stopping: string | null = null;
  const stop = (signal: string): void => {
    if (stopping !== null) return;
    stopping = signal;
    logger.info(`received ${signal}, shutting down`);
    if (!app) return;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  app = await createApp({ config, logger });
  let url: string;
  try {
    url = await app.listen();
  } catch (error) {
    // A port already in use must not leave the data folder locked, nor the process hanging on open handles.
    await app.close().catch(() => undefined);
    throw error;
  }
  if (stopping !== null) {
    const signal = stopping;
    stopping = null;
    stop(signal);
    return;
  }
  if (app.ownerKeyCreated) process.stdout.write(`Owner access key written to ${app.ownerKeyLocation}\n`);
  process.stdout.write(`Pinfold listening on ${url}\n`);
  // A one-time code, never the secret (as Jupyter prints its token URL): opens the window signed in as the owner.
  process.stdout.write(`Sign in: ${app.issueSignInCode().url}\n`);
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  const [command, ...rest] = args.positional;
  if (!command || args.flags.has('help')) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  switch (command) {
    case 'serve':
      if (rest.length > 0) throw new UsageError(`serve takes no arguments, got ${rest.join(' ')}`);
      await serve(args);
      return -1;
    case 'account':
      return accountCommand({ ...args, positional: rest });
    case 'gc':
      return gcCommand({ ...args, positional: rest });
    case 'open':
      return openCommand({ ...args, positional: rest });
    case 'sync':
      return syncCommand({ ...args, positional: rest });
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`pinfold: ${error.message}\n\n${USAGE}\n`);
    else if (error instanceof DataFolderLockedError) process.stderr.write(`pinfold: ${error.message}\n`);
    else process.stderr.write(`pinfold: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
