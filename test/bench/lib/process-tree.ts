import { readdirSync, readFileSync } from 'node:fs';
import { cpuSecondsOf } from './serve-process.js';

/**
 * CPU time of a process and everything it started (Linux: /proc), for programs that work in several
 * processes, as Chromium does (browser, renderers, GPU and utility processes).
 */

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name: the parent pid is the 2nd.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined; // gone since the listing
  }
}

/** `root` and its descendants, as they are now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const siblings = children.get(parent) ?? [];
    siblings.push(pid);
    children.set(parent, siblings);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Direct children of `parent` whose command name matches (e.g. the browser a test launched). */
export function childrenNamed(parent: number, name: RegExp): number[] {
  return processTree(parent).filter((pid) => {
    if (pid === parent || parentOf(pid) !== parent) return false;
    try {
      return name.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * CPU seconds used so far by each process of the tree, by pid. Compare two readings pid by pid: a process
 * that exits between them takes its time with it, so a reading is taken over a span in which the tree is
 * stable (an idle window), and processes that appear later count from zero.
 */
export function treeCpuSeconds(root: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of processTree(root)) {
    try {
      cpu.set(pid, cpuSecondsOf(pid));
    } catch {
      // exited since the listing
    }
  }
  return cpu;
}

/** CPU seconds the tree used between two readings. */
export function cpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}
