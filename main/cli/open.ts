import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { SignInCode, SignInHandoff } from '../../shared/api-types.js';
import { dataDirFlag, UsageError, type ParsedArgs } from './args.js';
import { CliFailure, ownerRequest } from './server-client.js';

/**
 * `pinfold open [--data DIR] [--no-browser]`: the running service's window, signed in as the owner
 * (issue 12). From a terminal it opens the browser; otherwise, or with --no-browser, it prints a
 * one-time sign-in link. Either way the owner's secret never leaves the service: a code does, which
 * works once, for five minutes.
 *
 * The browser is never handed the code on its command line (issue 22, item 1): the opener (`xdg-open`,
 * `open`, `start`) is a process whose arguments every local user can read, and the browser it starts
 * another. So the service writes the code into a page only this user can read (POST
 * /api/v0/session/handoff) and the opener gets that page's path; the service deletes the page once the
 * code is used or expires.
 */

/** The OS's own "open this" command, for a file: the user's default browser opens an .html page. */
export function browserCommand(platform: NodeJS.Platform, path: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [path] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one. The
  // arguments go verbatim (see openInBrowser), so the path is quoted here: a user's temp folder may hold spaces.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', `"${path}"`] };
  return { command: 'xdg-open', args: [path] };
}

/** Resolves once the opener started, or with the reason it could not (no opener on this machine). */
function openInBrowser(path: string): Promise<Error | null> {
  const { command, args } = browserCommand(process.platform, path);
  // Verbatim on Windows: Node would quote the empty title into \"\" and `start` would take the path for the title.
  const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: process.platform === 'win32' });
  return new Promise((resolve) => {
    child.once('spawn', () => {
      child.unref();
      resolve(null);
    });
    child.once('error', (error) => resolve(error));
  });
}

async function printLink(dataDir: string): Promise<void> {
  const { data } = await ownerRequest<SignInCode>(dataDir, 'POST', '/api/v0/session/code', {});
  if (!data) throw new CliFailure('the server answered without a sign-in code');
  process.stdout.write(`${data.url}\n`);
}

export async function openCommand(args: ParsedArgs): Promise<number> {
  if (args.positional.length > 0) throw new UsageError(`open takes no arguments, got ${args.positional.join(' ')}`);
  const dataDir = dataDirFlag(args);
  try {
    if (!process.stdout.isTTY || args.flags.has('no-browser')) {
      await printLink(dataDir);
      return 0;
    }
    const { data } = await ownerRequest<SignInHandoff>(dataDir, 'POST', '/api/v0/session/handoff', {});
    if (!data) throw new CliFailure('the server answered without a sign-in page');
    // A service with a temp folder of its own (systemd's PrivateTmp) writes where this process cannot see.
    if (!existsSync(data.path)) {
      process.stderr.write(`pinfold: the sign-in page ${data.path} is not visible from here; open this link yourself:\n`);
      await printLink(dataDir);
      return 0;
    }
    const failure = await openInBrowser(data.path);
    if (failure === null) {
      process.stdout.write('Opened Pinfold in your browser with a one-time sign-in page. No browser? Run `pinfold open --no-browser` for a link.\n');
      return 0;
    }
    // No opener on this machine: a link to copy instead, on the terminal only this user sees.
    process.stderr.write(`pinfold: could not open a browser (${failure.message}); open this link yourself:\n`);
    await printLink(dataDir);
    return 0;
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    process.stderr.write(`pinfold: ${error.message}\n`);
    return 1;
  }
}
