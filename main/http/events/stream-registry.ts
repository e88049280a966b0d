import type { StreamClient } from './event-stream.js';

/**
 * Which event streams are open: by account (for routing) and how many per access key (for the bound
 * on open streams). No timers and no I/O; the hub owns one and is the only one to change it.
 * The lists it hands out are copies: delivering to a stream may close it, which removes it from here.
 */
export class StreamRegistry<S extends StreamClient> {
  private readonly byAccount = new Map<number, Set<S>>();
  private readonly perKey = new Map<string, number>();

  add(stream: S): void {
    let set = this.byAccount.get(stream.accountId);
    if (!set) {
      set = new Set();
      this.byAccount.set(stream.accountId, set);
    }
    set.add(stream);
    this.perKey.set(stream.accessKey, this.openWithKey(stream.accessKey) + 1);
  }

  /** Forgets the stream; true when it was its account's last one. */
  remove(stream: S): boolean {
    const set = this.byAccount.get(stream.accountId);
    set?.delete(stream);
    const accountEmptied = set?.size === 0;
    if (accountEmptied) this.byAccount.delete(stream.accountId);
    const left = (this.perKey.get(stream.accessKey) ?? 1) - 1;
    if (left > 0) this.perKey.set(stream.accessKey, left);
    else this.perKey.delete(stream.accessKey);
    return accountEmptied;
  }

  hasAccount(accountId: number): boolean {
    return this.byAccount.has(accountId);
  }

  get isEmpty(): boolean {
    return this.byAccount.size === 0;
  }

  openWithKey(accessKey: string): number {
    return this.perKey.get(accessKey) ?? 0;
  }

  count(): number {
    let sum = 0;
    for (const set of this.byAccount.values()) sum += set.size;
    return sum;
  }

  streamsOf(accountId: number): S[] {
    return [...(this.byAccount.get(accountId) ?? [])];
  }

  /** Sync folders are the owner's alone, and so are their events. */
  ownerStreamsOf(accountId: number): S[] {
    return this.streamsOf(accountId).filter((stream) => stream.isOwner);
  }

  /** The streams an access key authorized; none without a walk when the key holds none. */
  streamsOfKey(accessKey: string): S[] {
    if (!this.perKey.has(accessKey)) return [];
    return this.all().filter((stream) => stream.accessKey === accessKey);
  }

  all(): S[] {
    const streams: S[] = [];
    for (const set of this.byAccount.values()) for (const stream of set) streams.push(stream);
    return streams;
  }
}
