import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderNotAllowedError, openableFolder } from '../../../main/desktop/folder-access.js';

describe('openableFolder', () => {
  let base: string;
  let data: string;
  let synced: string;
  let outside: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'pinfold-open-')));
    data = join(base, 'data');
    synced = join(base, 'Photos');
    outside = join(base, 'secret');
    for (const dir of [data, join(synced, 'trip'), outside]) await mkdir(dir, { recursive: true });
    await writeFile(join(synced, 'run-me.sh'), '#!/bin/sh\n');
    await symlink(outside, join(synced, 'escape'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const roots = () => [data, synced];

  it('opens a sync folder, the data folder and folders inside them', async () => {
    await expect(openableFolder(synced, roots())).resolves.toBe(synced);
    await expect(openableFolder(data, roots())).resolves.toBe(data);
    await expect(openableFolder(join(synced, 'trip'), roots())).resolves.toBe(join(synced, 'trip'));
    await expect(openableFolder(`${synced}/trip/../trip/`, roots())).resolves.toBe(join(synced, 'trip'));
  });

  it('answers null for a folder that is gone, or a file (never handed to shell.openPath)', async () => {
    await expect(openableFolder(join(synced, 'gone'), roots())).resolves.toBeNull();
    await expect(openableFolder(join(synced, 'run-me.sh'), roots())).resolves.toBeNull();
  });

  it.each([
    ['a folder outside', () => '/etc'],
    ['a sibling whose name starts like a root', () => `${synced}-other`],
    ['.. out of a root', () => `${synced}/../secret`],
    ['a link out of a root', () => join(synced, 'escape')],
    ['a relative path', () => 'Photos'],
    ['an empty path', () => ''],
    ['a NUL', () => `${synced}\0/x`],
    ['a huge path', () => `/${'a'.repeat(5000)}`],
    ['not text', () => 42],
  ])('refuses %s', async (_what, path) => {
    await expect(openableFolder(path(), roots())).rejects.toBeInstanceOf(FolderNotAllowedError);
  });
});
