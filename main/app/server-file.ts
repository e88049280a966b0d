import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../base/atomic-write.js';
import { dataFolderPaths } from '../base/data-folder.js';

/**
 * `<data>/server.json`: `{"url","pid"}` of the server holding the data folder, while it listens. The
 * server writes it (one writer, {@link writeServerFile}, with the reachable URL of base/reachable-url.ts);
 * the commands that work beside a running server (`pinfold gc`, `pinfold sync ...`) find it with
 * {@link readServerUrl}.
 */

export async function writeServerFile(dataDir: string, url: string): Promise<void> {
  await writeFileAtomic(dataFolderPaths(dataDir).serverFile, `${JSON.stringify({ url, pid: process.pid })}\n`, 0o600);
}

export function removeServerFile(dataDir: string): void {
  rmSync(dataFolderPaths(dataDir).serverFile, { force: true });
}

/** Why no server address could be read: the file is absent (no server listens) or not what the server writes. */
export class ServerFileError extends Error {
  override readonly name = 'ServerFileError';
  constructor(
    readonly reason: 'missing' | 'unreadable',
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The URL of the server listening on `dataDir`; throws {@link ServerFileError} when there is none to read. */
export async function readServerUrl(dataDir: string): Promise<string> {
  const path = dataFolderPaths(dataDir).serverFile;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ServerFileError('missing', path, `${path} is missing (no server is listening)`);
    throw new ServerFileError('unreadable', path, `${path} cannot be read: ${(error as Error).message}`);
  }
  let url: unknown;
  try {
    url = (JSON.parse(text) as { url?: unknown } | null)?.url;
  } catch {
    url = undefined;
  }
  if (typeof url !== 'string' || !/^http:\/\/[^/]+$/.test(url)) throw new ServerFileError('unreadable', path, `${path} holds no server url`);
  return url;
}
