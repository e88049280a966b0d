import { readFile } from 'node:fs/promises';

/** A small file's text, or null when it does not exist (a data folder's optional records); other errors throw. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
