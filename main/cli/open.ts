import { spawn } from 'node:child_process';
import type { SignInCode } from '../../shared/api-types.js';
import { dataDirFlag, UsageError, type ParsedArgs } from './args.js';
import { CliFailure, ownerRequest } from './server-client.js';

/**
 * `pinfold open [--data DIR] [--no-browser]`: a fresh one-time sign-in link for the running service
 * (issue 12), printed, and opened in the default browser when a person is at the terminal. The link
 * holds a code, never the owner's secret; the code works once, for five minutes.
 */

/** The OS's own "open this URL" command: what the user's desktop has chosen as the browser. */
export function browserCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: [url] };
}

function openInBrowser(url: string): void {
  const { command, args } = browserCommand(process.platform, url);
  // Verbatim on Windows: Node would quote the empty title into \"\" and `start` would take the URL for the title.
  const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: process.platform === 'win32' });
  // No browser opener on this machine: the printed link is still there to copy.
  child.on('error', (error) => process.stderr.write(`pinfold: could not open a browser (${error.message}); open the link above yourself\n`));
  child.unref();
}

export async function openCommand(args: ParsedArgs): Promise<number> {
  if (args.positional.length > 0) throw new UsageError(`open takes no arguments, got ${args.positional.join(' ')}`);
  const dataDir = dataDirFlag(args);
  try {
    const { data } = await ownerRequest<SignInCode>(dataDir, 'POST', '/api/v0/session/code', {});
    if (!data) throw new CliFailure('the server answered without a sign-in code');
    process.stdout.write(`${data.url}\n`);
    if (process.stdout.isTTY && !args.flags.has('no-browser')) openInBrowser(data.url);
    return 0;
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    process.stderr.write(`pinfold: ${error.message}\n`);
    return 1;
  }
}
