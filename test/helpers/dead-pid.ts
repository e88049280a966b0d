import { spawnSync } from 'node:child_process';

/** The pid of a process that has exited: a short-lived child's. */
export function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}
