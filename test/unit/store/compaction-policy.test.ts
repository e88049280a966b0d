import { describe, expect, it } from 'vitest';
import { worthCompacting } from '../../../main/store/blockstore/compaction-policy.js';
import { PACK_MAGIC } from '../../../main/store/blockstore/pack-format.js';

const MiB = 1024 * 1024;
const policy = { maxDeadBytes: 64 * MiB, maxLiveRatio: 0.5 };
const magic = PACK_MAGIC.length;

describe('worthCompacting', () => {
  it('always rewrites (deletes) a pack with nothing live, even an empty one', () => {
    expect(worthCompacting({ fileBytes: magic, liveRecordBytes: 0 }, policy)).toBe(true);
    expect(worthCompacting({ fileBytes: magic + 10 * MiB, liveRecordBytes: 0 }, policy)).toBe(true);
  });

  it('never rewrites a pack without dead bytes', () => {
    expect(worthCompacting({ fileBytes: magic + 256 * MiB, liveRecordBytes: 256 * MiB }, policy)).toBe(false);
    expect(worthCompacting({ fileBytes: magic + 1000, liveRecordBytes: 1000 }, policy)).toBe(false);
  });

  it('rewrites a mostly live pack once its dead bytes reach maxDeadBytes, not before', () => {
    expect(worthCompacting({ fileBytes: magic + 256 * MiB, liveRecordBytes: 192 * MiB }, policy)).toBe(true);
    expect(worthCompacting({ fileBytes: magic + 256 * MiB, liveRecordBytes: 192 * MiB + 1 }, policy)).toBe(false);
  });

  it('rewrites a small pack whose live share falls under maxLiveRatio', () => {
    expect(worthCompacting({ fileBytes: magic + 10 * MiB, liveRecordBytes: 5 * MiB - 1 }, policy)).toBe(true);
    expect(worthCompacting({ fileBytes: magic + 10 * MiB, liveRecordBytes: 5 * MiB }, policy)).toBe(false);
  });
});
