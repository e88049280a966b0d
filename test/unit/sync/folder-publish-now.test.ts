import { describe, expect, it } from 'vitest';
import { publishConflictMessage } from '../../../main/sync/folder-publish-now.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';

describe('publishConflictMessage (the 409 of a publish over a newer record seen elsewhere)', () => {
  it('names the record seen and says how to publish over it', () => {
    const seen = { seq: 4, value: 'bafy', seen_at: 50, source: 'http://127.0.0.1:9' };
    expect(publishConflictMessage(NAME, seen)).toBe(
      `id: a newer record of ${NAME} was seen elsewhere (sequence 4, http://127.0.0.1:9); publish with force=true to publish this folder's version over it`,
    );
  });

  it('without the record at hand, says so without it', () => {
    expect(publishConflictMessage(NAME, null)).toBe(
      `id: a newer record of ${NAME} was seen elsewhere; publish with force=true to publish this folder's version over it`,
    );
  });
});
