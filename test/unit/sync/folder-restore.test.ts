import { describe, expect, it } from 'vitest';
import { restorePlacement } from '../../../main/sync/folder-restore.js';

describe('restorePlacement (where a restored entry goes below its base)', () => {
  it('into the synced folder: back where it was', () => {
    expect(restorePlacement({ path: ['docs', 'a.txt'], overwrite: false })).toEqual(['docs', 'a.txt']);
    expect(restorePlacement({ path: [], overwrite: true })).toEqual([]);
  });

  it('into another folder: under its own name (the whole version: the folder itself)', () => {
    expect(restorePlacement({ path: ['docs', 'a.txt'], to: '/tmp/out', overwrite: false })).toEqual(['a.txt']);
    expect(restorePlacement({ path: [], to: '/tmp/out', overwrite: false })).toEqual([]);
  });
});
