import { spawnSync } from 'node:child_process';

/**
 * Writes every dirty page out (`sync`) before a measured phase, so that phase does not pay for the
 * writeback of data the previous one left (ext4 commits other files' dirty data with any fsync).
 * Both sides of a comparison get the same clean start.
 */
export function flushDisk(): void {
  if (process.platform === 'win32') return;
  spawnSync('sync', [], { stdio: 'ignore' });
}
