import type { AccountsContext } from '../accounts/context.js';
import type { EventHub } from '../http/events/event-hub.js';
import { contentCensus } from '../pins/content-census.js';
import type { PinsContext } from '../pins/context.js';
import type { GcResult } from '../pins/gc.js';
import { startPendingPins, type PendingPinsRunner } from '../pins/pending-pins.js';
import { PinFetchBoard, startPinFetches, type PinFetches } from '../pins/pin-fetches.js';
import { originSourcesOf } from '../pins/psa-pins.js';
import { garbageCollectionCycle } from './garbage-collection.js';
import { startGcSchedule, type GcSchedule } from './gc-schedule.js';
import type { ContentPart } from './open-content.js';
import type { Storage } from './open-storage.js';
import type { StartContext } from './start-context.js';

/** The pins domain and what works on pins in the background. */
export interface PinWork {
  pins: PinsContext;
  pendingPins: PendingPinsRunner;
  pinFetches: PinFetches;
  gcSchedule: GcSchedule;
  /** One garbage-collection cycle now, logged (the schedule's, POST /api/v0/repo/gc's). */
  runGc: () => Promise<GcResult>;
}

/**
 * Starts settling pending pins, the periodic GC and the fetches of pins' missing blocks. Each closes
 * before the stores and the network client they use, which were opened before them.
 */
export async function startPinWork(
  start: StartContext,
  storage: Storage,
  parts: { accounts: AccountsContext; events: EventHub; content: ContentPart },
): Promise<PinWork> {
  const { config, logger, stack } = start;
  const { blocks, gcLock, gcStore, fetcher } = parts.content;
  const board = new PinFetchBoard();
  const pins: PinsContext = {
    accounts: parts.accounts,
    content: contentCensus(blocks),
    pinTimeoutSeconds: config.pinTimeoutSeconds,
    gcLock,
    // Only addPin calls it, and no pin is added before the runners below have started.
    onPinning: () => {
      pendingPins.nudge();
      pinFetches.nudge();
    },
    events: parts.events,
    fetches: board,
  };
  const pendingPins = stack.use(startPendingPins(pins, logger));
  await start.started('pending-pins');

  const { settings } = storage;
  const runGc = async (): Promise<GcResult> => {
    // The grace in use when the cycle starts (`gc_grace_seconds` applies at once).
    const result = await garbageCollectionCycle(pins, gcStore, blocks, settings.current().gc_grace_seconds);
    logger.info('garbage collection finished', { ...result });
    return result;
  };
  const coordination = storage.metadata.coordination;
  const gcSchedule = await startGcSchedule({
    intervalSeconds: settings.current().gc_interval_seconds,
    leadership:
      coordination?.gcLeadership((leads) =>
        leads ? logger.info('garbage collection: this instance leads') : logger.warn('garbage collection: this instance no longer leads'),
      ) ?? null,
    runCycle: () => runGc().catch((error: unknown) => logger.error('garbage collection failed', { error })),
    logger,
  });
  // A tick during the close of what started after it still runs its cycle: the block store's close waits for it.
  stack.use(gcSchedule);
  // A new interval applies at once: the next cycle comes that long after the change. Stops before the schedule closes.
  stack.defer(
    settings.onChange((current, before) => {
      if (current.gc_interval_seconds !== before.gc_interval_seconds) gcSchedule.reschedule(current.gc_interval_seconds);
    }),
  );
  await start.started('gc-schedule');

  // A pin's missing blocks come from the network; on one instance only when several share the database.
  const pinFetches = stack.use(
    startPinFetches({
      pins,
      fetcher,
      board,
      onFetched: () => pendingPins.nudge(),
      // The Pinning Service API's origins of a pin: extra sources of its fetch.
      originsOf: (pin) => originSourcesOf(pins, pin.id),
      leads: () => gcSchedule.leads(),
      logger,
    }),
  );
  await start.started('pin-fetches');
  return { pins, pendingPins, pinFetches, gcSchedule, runGc };
}
