import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTextIfExists } from '../../../main/base/read-if-exists.js';
import { tempDirs } from '../../helpers/temp-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.removeAll());

describe('readTextIfExists', () => {
  it('reads a file, answers null for a missing one and throws for anything else', async () => {
    const dir = await dirs.make();
    await writeFile(join(dir, 'record.json'), '{"version":1}\n');
    expect(await readTextIfExists(join(dir, 'record.json'))).toBe('{"version":1}\n');
    expect(await readTextIfExists(join(dir, 'missing.json'))).toBeNull();
    // A folder where the file should be is a fault to report, not "no record yet".
    await expect(readTextIfExists(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
