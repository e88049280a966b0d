import type { CID } from 'multiformats/cid';

/**
 * What the folder rules need from the pins domain, injected by the composition root so that every
 * rule is checked before any change. All checks are about the calling account's own pins.
 */
export interface FolderPins {
  /** True when the account has a pin on `cid` that is not being removed (pinned or pinning). */
  isPinned(accountId: number, cid: CID): boolean;
  /**
   * True when the DAG of `cid` is reached by another pin of the account than its pin on `cid` itself
   * (rule 4: `unpin_old` must then fail with 409).
   */
  isUsedByOtherPin(accountId: number, cid: CID): boolean | Promise<boolean>;
  /**
   * Pins `pin` and/or unpins `unpin` for the account, both or neither (called once every rule has
   * passed and the new blocks are written). May throw, e.g. a plan limit, changing nothing.
   */
  applyPinChanges(accountId: number, changes: { pin?: CID; unpin?: CID }): void | Promise<void>;
}
