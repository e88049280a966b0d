import { describe, expect, it } from 'vitest';
import type { CoalescedNotices } from '../../../../main/http/events/coalesced-notices.js';
import { domainPublishers } from '../../../../main/http/events/domain-publishers.js';
import type { EventStream } from '../../../../main/http/events/event-stream.js';
import type { KeyedThrottle } from '../../../../main/http/events/keyed-throttle.js';
import { StreamRegistry } from '../../../../main/http/events/stream-registry.js';

/** A stream that records what it was sent and whether it was closed. */
function stream(accountId: number, accessKey: string, isOwner = false): EventStream & { sent: string[] } {
  const sent: string[] = [];
  let closed = false;
  return {
    accountId,
    accessKey,
    isOwner,
    expiresAt: null,
    sent,
    get closed() {
      return closed;
    },
    send: (text) => sent.push(text),
    close: () => {
      closed = true;
    },
  };
}

/** A throttle that records its requests and cancels. */
function recorded<K>(): KeyedThrottle<K> & { log: string[] } {
  const log: string[] = [];
  return { log, request: (key) => log.push(`request ${String(key)}`), cancel: (key) => log.push(`cancel ${String(key)}`), close: () => undefined };
}

function setup(partnerNotices = false) {
  const streams = new StreamRegistry<EventStream>();
  const notices = { usage: recorded<number>(), sync: recorded<string>(), partner: recorded<number>(), close: () => undefined } satisfies CoalescedNotices;
  const publishers = domainPublishers({
    streams,
    notices,
    deliverAll: (to, text) => {
      for (const each of to) each.send(text);
    },
    partnerNotices,
  });
  return { streams, notices, publishers };
}

describe('domain publishers', () => {
  it("routes an account's events to its streams only, and does nothing for an account with none", () => {
    const { streams, notices, publishers } = setup();
    const mine = stream(1, 'k1');
    const theirs = stream(2, 'k2');
    streams.add(mine);
    streams.add(theirs);
    publishers.nameChanged(1, { name: 'n', removed: true });
    publishers.usageChanged(1);
    publishers.usageChanged(3);
    expect(mine.sent).toHaveLength(1);
    expect(mine.sent[0]).toMatch(/^event: name\n/);
    expect(theirs.sent).toEqual([]);
    expect(notices.usage.log).toEqual(['request 1']);
  });

  it("a deleted key closes the streams it authorized, of any account; a key's other change closes nothing", () => {
    const { streams, publishers } = setup();
    const byKey = stream(1, 'gone');
    const elsewhere = stream(2, 'gone');
    const other = stream(1, 'kept');
    for (const each of [byKey, elsewhere, other]) streams.add(each);
    publishers.keyChanged(1, { access_key: 'gone' });
    expect([byKey.closed, elsewhere.closed, other.closed]).toEqual([false, false, false]);
    publishers.keyChanged(1, { access_key: 'gone', removed: true });
    expect([byKey.closed, elsewhere.closed, other.closed]).toEqual([true, true, false]);
  });

  it("sync goes to the owner's streams only: a change is coalesced, a removal sent at once and its pending notice cancelled", () => {
    const { streams, notices, publishers } = setup();
    const owner = stream(1, 'k1', true);
    const user = stream(1, 'k2');
    streams.add(owner);
    streams.add(user);
    publishers.syncChanged(1, 'f1');
    publishers.syncChanged(1, 'f1', true);
    publishers.syncChanged(2, 'f2');
    expect(notices.sync.log).toEqual(['request 1:f1', 'cancel 1:f1']);
    expect(owner.sent).toEqual(['event: sync\ndata: {"id":"f1","removed":true}\n\n']);
    expect(user.sent).toEqual([]);
  });

  it('asks for partner notices only when partners are looked up and some stream is open', () => {
    const off = setup(false);
    off.streams.add(stream(9, 'k9'));
    off.publishers.usageChanged(1);
    expect(off.notices.partner.log).toEqual([]);
    const on = setup(true);
    on.publishers.usageChanged(1);
    expect(on.notices.partner.log).toEqual([]);
    on.streams.add(stream(9, 'k9'));
    on.publishers.keyChanged(1, { access_key: 'k1' });
    expect(on.notices.partner.log).toEqual(['request 1']);
  });
});
