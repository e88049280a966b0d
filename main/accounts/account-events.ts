import type { KeyChange } from '../../shared/api-types.js';

/**
 * What the accounts domain tells the window's live event stream (`GET /api/v0/events`, issue 12) right after
 * a change is committed. The composition root hands it the http layer's event hub; no domain listens to
 * another through it. Each call is cheap when nobody listens, so the domain calls it unconditionally.
 */
export interface AccountEvents {
  /**
   * The account's usage counters, plan or balance changed. A notice: the stream reads the current stats when
   * it sends, at most once a second, so a burst of changes costs one read.
   */
  usageChanged(accountId: number): void;
  /** An access key was created or (`removed`) deleted; streams opened with a deleted key close. */
  keyChanged(accountId: number, key: KeyChange): void;
}
