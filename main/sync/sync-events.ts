/** What sync folders tell the window's live event stream (issue 12) when a folder's state moves. */
export interface SyncEvents {
  /**
   * A sync folder's status moved, or (`removed`) the folder was removed. A notice: the stream reads the
   * folder's row when it sends, at most four times a second per folder.
   */
  syncChanged(accountId: number, folderId: string, removed?: boolean): void;
}
