import type { LockHold } from '../base/lock.js';
import { PENDING_IPNS_NAME } from './folder-publish.js';
import type { ReconcilerComponents } from './reconciler.js';
import type { RunnerContext } from './runner-context.js';
import type { BlockSession } from './runner-types.js';

/** Raised inside movePin when the folder root failed the unmounted-drive rule mid-batch. */
class RootGoneError extends Error {
  override readonly name = 'RootGoneError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface GuardHooks {
  /** Tells the event stream the folder moved (a name made, a publish stopped by a conflict). */
  changed(): void;
  /** The root went away mid-batch (the batch is dropped already): pause the folder. */
  pauseForRoot(reason: string): Promise<void>;
}

/** Runs a reconciler step (a batch, a journal's recovery); undefined when the root went away meanwhile. */
export type GuardedStep = <T>(step: (components: ReconcilerComponents) => Promise<T>) => Promise<T | undefined>;

/**
 * The guard every reconciler step of a folder runs under: GC held off (so it cannot collect blocks a
 * batch imported before the new root is pinned) and a fresh block session (dropped unless the step got
 * as far as pinning). A root that vanished mid-batch drops the batch's journal and pauses.
 */
export function reconcileGuard(ctx: RunnerContext, hooks: GuardHooks): GuardedStep {
  return async (step) => {
    try {
      return await ctx.domains.holdGc(async (gcHold) => {
        const session = ctx.domains.openSession();
        try {
          return await step(componentsFor(ctx, hooks, session, gcHold));
        } finally {
          session.abort();
        }
      });
    } catch (error) {
      if (!(error instanceof RootGoneError)) throw error;
      await ctx.store.sync.discardSyncJournal(ctx.folderId);
      await hooks.pauseForRoot(error.reason);
      return undefined;
    }
  };
}

/** The reconciler's view of the domains, for this folder, one batch's block session and its GC hold. */
function componentsFor(ctx: RunnerContext, hooks: GuardHooks, session: BlockSession, gcHold: LockHold): ReconcilerComponents {
  const { domains, store, accountId, folderId } = ctx;
  return {
    store,
    clock: ctx.clock,
    emptyDirectory: session.emptyDirectory,
    importFile: session.importFile,
    applyOperation: session.applyOperation,
    async movePin(newRoot, oldRoot) {
      // The unmounted-drive rule again, right before the pin: a root gone while the batch was built abandons it.
      const check = await ctx.checkRoot();
      if (!check.ok) throw new RootGoneError(check.reason);
      await session.commit();
      await domains.movePin(accountId, newRoot, oldRoot, ctx.pinName, gcHold);
    },
    async publish(ipnsName, root) {
      if (ipnsName !== PENDING_IPNS_NAME) {
        // A conflict stops the publish, not the batch: the version is still made, pinned and kept.
        if ((await domains.publish(accountId, ipnsName, root)) === 'conflict') {
          ctx.logger.warn('sync folder not published: a newer record of its name was seen elsewhere', { folderId, name: ipnsName });
          hooks.changed();
        }
        return;
      }
      const name = await domains.createName(accountId, root);
      await store.sync.setSyncFolderIpnsName(folderId, name);
      hooks.changed();
    },
  };
}
