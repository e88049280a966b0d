import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The bytes of a block store's pack files (`blocksDir/packs`); a pack removed meanwhile counts 0. */
export async function packBytes(blocksDir: string): Promise<number> {
  const dir = join(blocksDir, 'packs');
  let total = 0;
  for (const name of await readdir(dir))
    total += await stat(join(dir, name)).then(
      (info) => info.size,
      () => 0,
    );
  return total;
}
