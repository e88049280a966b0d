import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataFolderLock, DataFolderLockedError } from '../../../main/base/lock-file.js';
import { deadPid } from '../../helpers/dead-pid.js';

/** The pid of a process that has certainly exited. */

describe('data folder lock', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes our pid and removes the file on release', () => {
    const lock = acquireDataFolderLock(dir);
    expect(readFileSync(join(dir, 'pinfold.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, 'pinfold.lock'))).toBe(false);
  });

  it('refuses a folder held by a live process, naming the folder and the pid', () => {
    // The parent of this worker is alive for the whole test.
    writeFileSync(join(dir, 'pinfold.lock'), String(process.ppid));
    let caught: unknown;
    try {
      acquireDataFolderLock(dir);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataFolderLockedError);
    expect((caught as Error).message).toContain(dir);
    expect((caught as Error).message).toContain(String(process.ppid));
    expect(readFileSync(join(dir, 'pinfold.lock'), 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a lock left by a dead process', () => {
    writeFileSync(join(dir, 'pinfold.lock'), String(deadPid()));
    const lock = acquireDataFolderLock(dir);
    expect(readFileSync(join(dir, 'pinfold.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('takes over a lock file with garbage in it', () => {
    writeFileSync(join(dir, 'pinfold.lock'), 'not a pid');
    const lock = acquireDataFolderLock(dir);
    expect(readFileSync(join(dir, 'pinfold.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('release leaves alone a lock that another process has since taken', () => {
    const lock = acquireDataFolderLock(dir);
    writeFileSync(join(dir, 'pinfold.lock'), String(process.ppid));
    lock.release();
    expect(readFileSync(join(dir, 'pinfold.lock'), 'utf8')).toBe(String(process.ppid));
  });
});
