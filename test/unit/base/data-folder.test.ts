import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataFolderPaths } from '../../../main/base/data-folder.js';

describe('the layout of a data folder', () => {
  it('names every file the server, the commands and the desktop app share', () => {
    const dir = join('srv', 'pinfold');
    const paths = dataFolderPaths(dir);
    expect(paths).toMatchObject({
      dir,
      database: join(dir, 'pinfold.db'),
      blocks: join(dir, 'blocks'),
      lock: join(dir, 'pinfold.lock'),
      serverFile: join(dir, 'server.json'),
      secretsRecord: join(dir, 'secrets.json'),
      ownerKey: join(dir, 'owner-key.json'),
      plans: join(dir, 'plans.json'),
    });
    expect(paths.keyFile('master')).toBe(join(dir, 'master.key'));
    expect(paths.keyFile('upload-signing')).toBe(join(dir, 'upload-signing.key'));
  });
});
