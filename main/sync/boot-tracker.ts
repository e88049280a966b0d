import { INITIAL_BOOT_STATE, isCurrent, routeWatcherEvent, stepBoot, type BootEffect, type BootEvent, type BootState } from './boot-sequence.js';

/**
 * Where a runner's boot stands (boot-sequence.ts decides), held in one place: its generation, bumped on
 * every boot, halt and stop, so work of an older one finds itself stale and does nothing; and whether
 * the runner stopped.
 */
export class BootTracker {
  private state: BootState = INITIAL_BOOT_STATE;

  get generation(): number {
    return this.state.generation;
  }

  get stopped(): boolean {
    return this.state.stopped;
  }

  /** Whether work started in generation `gen` still belongs to the boot under way. */
  current(gen: number): boolean {
    return isCurrent(this.state, gen);
  }

  /** What becomes of an event the watcher of generation `gen` reports. */
  route(gen: number): 'drop' | 'buffer' | 'push' {
    return routeWatcherEvent(this.state, gen);
  }

  /** Applies `event`; answers the effects the sequence asks for, in order. */
  advance(event: BootEvent): BootEffect[] {
    const next = stepBoot(this.state, event);
    this.state = next.state;
    return next.effects;
  }
}
