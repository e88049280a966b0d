import { describe, expect, it } from 'vitest';
import { CID_PROFILES } from '../../../main/base/config.js';
import { cidProfile } from '../../../main/content/cid-profile.js';
import { isUnixfsProfileName, UNIXFS_PROFILES } from '../../../shared/unixfs-profiles.js';

/**
 * The window builds a dropped folder's CAR with shared/unixfs-profiles.ts; the service builds content with
 * main/content/cid-profile.ts. They must say the same, or the folder CID the window shows would differ
 * from what the service computes for the same files.
 */
describe('shared UnixFS profiles', () => {
  it.each(CID_PROFILES)('%s: the same options the service builds files and directories with', (name) => {
    const service = cidProfile(name);
    const shared = UNIXFS_PROFILES[name];
    expect(shared).toEqual({
      cidVersion: service.file.cidVersion,
      rawLeaves: service.file.rawLeaves,
      leafType: service.file.leafType,
      chunkSize: service.file.chunkSize,
      maxChildrenPerNode: service.file.maxChildrenPerNode,
      reduceSingleLeafToSelf: service.file.reduceSingleLeafToSelf,
      shardSplitThresholdBytes: service.directory.shardSplitThresholdBytes,
      shardSplitStrategy: service.directory.shardSplitStrategy,
    });
    // Directories are written in the files' CID version, and files are hashed with sha2-256.
    expect(service.directory.cidVersion).toBe(shared.cidVersion);
    expect(service.file.hashCode).toBe(0x12);
  });

  it('names exactly the profiles the service knows', () => {
    expect(Object.keys(UNIXFS_PROFILES).sort()).toEqual([...CID_PROFILES].sort());
    for (const name of CID_PROFILES) expect(isUnixfsProfileName(name)).toBe(true);
    for (const other of ['unixfs-v1', '', null, 1, 'UNIXFS-V1-2025']) expect(isUnixfsProfileName(other)).toBe(false);
  });
});
