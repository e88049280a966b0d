import { describe, it, expect } from 'vitest';
import type { RawEvent } from '../../../main/sync/coalescer.js';
import { createIgnoreRules } from '../../../main/sync/ignore-rules.js';
import { WatchSession } from '../../../main/sync/watch-session.js';

const clock = { nowMs: (): number => 1_000 };

function sessionOf(): { session: WatchSession; events: RawEvent[] } {
  const events: RawEvent[] = [];
  const session = new WatchSession('/tmp/folder', createIgnoreRules(), clock, { onEvent: (e) => events.push(e) }, 200);
  return { session, events };
}

describe('WatchSession', () => {
  it('forgets a folder that went away with everything below it, and nothing beside it', () => {
    const { session } = sessionOf();
    for (const dir of ['', 'a', 'a/b', 'ab']) session.dirs.add(dir);
    const stat = { size: 1, mtimeMs: 2, ino: 3 };
    session.pending.written('a/b/f', stat, 0, undefined);
    session.pending.written('ab/f', stat, 0, undefined);
    session.rules.setIgnoreFile('a/b', '*.tmp');
    session.rules.setIgnoreFile('ab', '*.tmp');
    session.forgetFolder('a');
    expect([...session.dirs]).toEqual(['', 'ab']);
    expect(session.pending.has('a/b/f')).toBe(false);
    expect(session.pending.has('ab/f')).toBe(true);
    expect(session.rules.ignoreFileDirs()).toEqual(['ab']);
  });

  it("stamps what it emits with the clock's time", () => {
    const { session, events } = sessionOf();
    session.emit({ kind: 'addDir', path: 'd' });
    expect(events).toEqual([{ kind: 'addDir', path: 'd', at: 1_000 }]);
  });
});
