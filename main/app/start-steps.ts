/**
 * The steps of createApp's start, in order: each is a point where something that runs on its own has
 * started (a timer, a worker, a store, a server, a watcher) and registered its closing. The last, `ready`,
 * is everything built. Tests fail a start at each to prove that nothing is left running (AppInit.startHook).
 */
export const START_STEPS = [
  'data-folder-lock',
  'metadata-store',
  'accounts',
  'block-store',
  'network-client',
  'pending-pins',
  'gc-schedule',
  'pin-fetches',
  'name-publisher',
  'change-channel',
  'republisher',
  'session-sweep',
  'sign-in-handoffs',
  'http-server',
  'sync',
  'event-streams',
  'ready',
] as const;

export type StartStep = (typeof START_STEPS)[number];

/** Called once each step has started; what it throws fails the start there. */
export type StartHook = (step: StartStep) => void | Promise<void>;
