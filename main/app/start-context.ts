import { systemClock, unixSeconds, type Clock } from '../base/clock.js';
import type { ServiceConfig } from '../base/config.js';
import { DisposalStack } from '../base/disposal-stack.js';
import { silentLogger, type Logger } from '../base/logger.js';
import type { AppInit } from './app-init.js';
import type { StartStep } from './start-steps.js';

/** What every part of createApp's start is handed: the caller's init with its defaults, and the stack. */
export interface StartContext {
  init: AppInit;
  config: ServiceConfig;
  clock: Clock;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** When the start began (unix seconds): the service facts' `started_at`. */
  startedAt: number;
  /**
   * Everything that runs on its own registers its closing here the moment it starts. A failed start and
   * close() both dispose it: the last started closes first.
   */
  stack: DisposalStack;
  /** A step has started (and registered its closing): the test hook may fail the start here. */
  started(step: StartStep): Promise<void>;
}

export function startContext(init: AppInit): StartContext {
  const clock = init.clock ?? systemClock;
  return {
    init,
    config: init.config,
    clock,
    logger: init.logger ?? silentLogger,
    env: init.env ?? process.env,
    startedAt: unixSeconds(clock),
    stack: new DisposalStack(),
    started: async (step) => init.startHook?.(step),
  };
}
