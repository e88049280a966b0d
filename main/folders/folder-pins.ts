import type { CID } from 'multiformats/cid';

/** The pin moves of one folder operation (`pin_new`, `unpin_old`). */
export interface FolderPinChanges {
  pin?: CID;
  /** With `pin`: the new root's cumulative DAG size (its links' Tsize + its block), known without a walk. */
  pinBytes?: number;
  /**
   * With `pin`: the DAGs the new root is made of (the old root, then every added CID). The new DAG is
   * complete when each of them is, so an adapter may skip walking it only then; a part whose pin is
   * still `pinning` (blocks missing) makes the new pin `pinning` too.
   */
  pinParts?: CID[];
  /** With `pin`: the pin's name (a sync folder names its root's pin; a folder operation leaves it as it is). */
  name?: string;
  unpin?: CID;
}

/**
 * What the folder rules need from the pins domain, injected by the composition root so that every
 * rule is checked before any change. All checks are about the calling account's own pins.
 */
export interface FolderPins {
  /** True when the account has a pin on `cid` that is not being removed (pinned or pinning). */
  isPinned(accountId: number, cid: CID): Promise<boolean>;
  /**
   * True when the DAG of `cid` is reached by another pin of the account than its pin on `cid` itself
   * (rule 4: `unpin_old` must then fail with 409).
   */
  isUsedByOtherPin(accountId: number, cid: CID): boolean | Promise<boolean>;
  /**
   * Optional: throws what {@link applyPinChanges} would throw for a plan limit (403), changing
   * nothing. Called once every rule has passed and before any block is written, so that a call its
   * plan refuses writes nothing at all; without it, such a call leaves its new blocks unreferenced
   * (for the next GC) though no pin or record changes.
   */
  checkPinChanges?(accountId: number, changes: FolderPinChanges): void | Promise<void>;
  /**
   * Pins `pin` and/or unpins `unpin` for the account, both or neither (called once every rule has
   * passed and the new blocks are written). May throw, e.g. a plan limit, changing nothing.
   */
  applyPinChanges(accountId: number, changes: FolderPinChanges): void | Promise<void>;
}
