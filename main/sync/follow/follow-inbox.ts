/**
 * What a followed folder's push loops and its cycles share: the records sources pushed since the last cycle
 * (unverified: they compete with the network's at the next cycle), and the sequence held, which the
 * long-polls ask past (-1 before the first copy).
 */
export class FollowInbox {
  private pushed: Uint8Array[] = [];

  constructor(public held: bigint) {}

  push(record: Uint8Array): void {
    this.pushed.push(record);
  }

  /** The records pushed so far, for the cycle starting now. */
  take(): Uint8Array[] {
    const taken = this.pushed;
    this.pushed = [];
    return taken;
  }
}
