import { createHook } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';

/**
 * What a test left running, seen two ways:
 * - `process.getActiveResourcesInfo()` lists what keeps the process alive (ref'd timers, sockets, servers,
 *   fs watchers), so a test compares it with a baseline taken before it started anything;
 * - but Pinfold unrefs its own timers and idle workers, which that list never shows, so an async hook
 *   also records every timer, worker, socket and watcher made while it is on, until it is destroyed.
 *   Timers are kept only when made by Pinfold's code (main/): the test runner, fetch and the test kit
 *   make their own.
 */

const MAIN_DIR = fileURLToPath(new URL('../../main/', import.meta.url));

/** The async resource types that run on their own; promises, requests and the like end with their work. */
const HANDLE_TYPES = new Set([
  'Timeout',
  'Immediate',
  'TCPSERVERWRAP',
  'TCPWRAP',
  'PIPESERVERWRAP',
  'PIPEWRAP',
  'FSEVENTWRAP',
  'STATWATCHER',
  'WORKER',
  'PROCESSWRAP',
  'UDPWRAP',
]);
/** Types other code of the test process makes too: kept only when Pinfold's code made them. */
const MADE_BY_MAIN_ONLY = new Set(['Timeout', 'Immediate']);

export interface LiveResource {
  type: string;
  /** Where it was made (the synchronous stack at its creation). */
  stack: string;
}

export interface ResourceTracker {
  /** What was made since the tracker started and is not destroyed yet. */
  live(): LiveResource[];
  stop(): void;
}

function creationStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error('made here').stack ?? '';
  Error.stackTraceLimit = limit;
  return stack;
}

export function trackResources(): ResourceTracker {
  const live = new Map<number, LiveResource>();
  const hook = createHook({
    init(asyncId, type) {
      if (!HANDLE_TYPES.has(type)) return;
      const stack = creationStack();
      if (MADE_BY_MAIN_ONLY.has(type) && !stack.includes(MAIN_DIR)) return;
      live.set(asyncId, { type, stack });
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  });
  hook.enable();
  return { live: () => [...live.values()], stop: () => void hook.disable() };
}

/** How many resources of each type `process.getActiveResourcesInfo()` lists. */
export function activeResourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

/** The types listed more often now than in the baseline, with how many more. */
export function beyondBaseline(baseline: Map<string, number>, now = activeResourceCounts()): string[] {
  return [...now].filter(([type, count]) => count > (baseline.get(type) ?? 0)).map(([type, count]) => `${type} +${count - (baseline.get(type) ?? 0)}`);
}

/**
 * Waits (polling, up to `deadlineMs`: sockets and handles report their end a turn or two after closing)
 * until nothing the tracker saw is alive and nothing beyond the baseline keeps the process up; else throws
 * naming what is left and where it was made.
 */
export async function expectNothingLeftRunning(tracker: ResourceTracker, baseline: Map<string, number>, deadlineMs = 3000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const live = tracker.live();
    const extra = beyondBaseline(baseline);
    if (live.length === 0 && extra.length === 0) return;
    if (Date.now() > deadline) {
      const made = live.map((resource) => `${resource.type} ${resource.stack.split('\n').slice(1).join('\n')}`).join('\n\n');
      throw new Error(`left running: ${extra.join(', ') || 'nothing the process waits on'}; not destroyed: ${live.length}\n${made}`);
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
  }
}
