import { lstat, open } from 'node:fs/promises';
import path from 'node:path';
import { IGNORE_FILE } from './ignore-rules.js';

/** The most of a folder's `.pinfoldignore` the window is shown. */
export const IGNORE_FILE_VIEW_BYTES = 64 * 1024;

export interface IgnoreFileView {
  /** The text (UTF-8, a broken sequence shown as U+FFFD), or null when the folder has no such regular file. */
  text: string | null;
  truncated: boolean;
}

/**
 * `<folder>/.pinfoldignore` as the folder's page shows it (read-only): at most IGNORE_FILE_VIEW_BYTES, cut
 * on a character boundary. A symlink or a folder by that name is no ignore file (the scanner skips it too);
 * one that cannot be read shows as none.
 */
export async function readIgnoreFileView(folder: string): Promise<IgnoreFileView> {
  const file = path.join(folder, IGNORE_FILE);
  try {
    const info = await lstat(file);
    if (!info.isFile()) return { text: null, truncated: false };
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(IGNORE_FILE_VIEW_BYTES + 1);
      let read = 0;
      while (read < buffer.length) {
        const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      const truncated = read > IGNORE_FILE_VIEW_BYTES;
      // stream: true leaves out a character cut in half at the end instead of showing U+FFFD for it.
      const text = new TextDecoder('utf-8').decode(buffer.subarray(0, Math.min(read, IGNORE_FILE_VIEW_BYTES)), { stream: truncated });
      return { text, truncated };
    } finally {
      await handle.close();
    }
  } catch {
    return { text: null, truncated: false };
  }
}
