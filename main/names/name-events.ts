import type { IpnsRecordView, NameRemoved } from '../../shared/api-types.js';

/** What the names domain tells the window's live event stream (issue 12) right after a change is committed. */
export interface NameEvents {
  /** A name was created, imported, published or re-aliased, or (`removed`) deleted. */
  nameChanged(accountId: number, name: IpnsRecordView | NameRemoved): void;
}
