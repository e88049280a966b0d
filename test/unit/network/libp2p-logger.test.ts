import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/base/logger.js';
import { componentLogger, formatLine } from '../../../main/network/libp2p-logger.js';

describe('libp2p logger adapter', () => {
  it('fills printf-style placeholders, CIDs and errors by their text', () => {
    const cid = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');
    expect(formatLine('found %d providers for %c', [3, cid])).toBe(`found 3 providers for ${cid.toString()}`);
    expect(formatLine('failed - %e', [new Error('boom')])).toBe('failed - boom');
    expect(formatLine('100%% of %s', ['it', { extra: 1 }])).toBe('100% of it {"extra":1}');
    expect(formatLine('missing %s', [])).toBe('missing %s');
  });

  it("writes every library line to Pinfold's log at debug level, scoped by component", () => {
    const lines: string[] = [];
    const log = componentLogger(createLogger('debug', (line) => lines.push(line))).forComponent('helia:routing');
    log('asked %s', 'one');
    log.error('lookup failed - %e', new Error('404'));
    log.newScope('cache')('hit');
    log.trace('noise');
    expect(lines.map((line) => line.replace(/^\S+ /, '').trim())).toEqual([
      'debug helia:routing: asked one',
      'debug helia:routing: lookup failed - 404',
      'debug helia:routing:cache: hit',
    ]);
  });
});
