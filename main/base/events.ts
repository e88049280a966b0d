import type { IpnsRecordView, KeyChange, NameRemoved, PinRecord, PinRemoved } from '../../shared/api-types.js';

/**
 * What the domains tell the window's live event stream (`GET /api/v0/events`, issue 12) about an account,
 * right after a change is committed. No global bus: the composition root hands each domain the part it
 * publishes (accounts: usage and keys; pins; names; sync), and the http layer implements it. Every
 * method is cheap when nobody listens (a map lookup), so the domains call it unconditionally.
 *
 * `usage` and `sync` are notices: the stream reads the current stats or folder row when it sends, at
 * most once a second (usage) or four times a second per folder (sync), so a burst of changes costs one
 * read; the others carry their data.
 */
export interface EventPublisher {
  /** The account's usage counters, plan or balance changed. */
  usageChanged(accountId: number): void;
  /** A pin was added, changed status or name, or (`removed`) left the list. */
  pinChanged(accountId: number, pin: PinRecord | PinRemoved): void;
  /** A name was created, imported, published or re-aliased, or (`removed`) deleted. */
  nameChanged(accountId: number, name: IpnsRecordView | NameRemoved): void;
  /** An access key was created or (`removed`) deleted; streams opened with a deleted key close. */
  keyChanged(accountId: number, key: KeyChange): void;
  /** A sync folder's status moved, or (`removed`) the folder was removed. */
  syncChanged(accountId: number, folderId: string, removed?: boolean): void;
}
