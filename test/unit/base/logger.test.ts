import { describe, expect, it } from 'vitest';
import { createLogger, redact } from '../../../main/base/logger.js';

describe('logger', () => {
  it('redacts values under secret-looking keys, nested too', () => {
    const lines: string[] = [];
    const log = createLogger('debug', (line) => lines.push(line));
    log.info('key created', {
      access_key: 'k-1',
      access_secret: 'SECRET-ONE',
      nested: { x_access_signature: 'SECRET-TWO', authorization: 'SECRET-THREE', ok: 1 },
      masterKey: 'SECRET-FOUR',
    });
    const out = lines.join('');
    expect(out).toContain('key created');
    expect(out).toContain('k-1');
    expect(out).toContain('"ok":1');
    for (const secret of ['SECRET-ONE', 'SECRET-TWO', 'SECRET-THREE', 'SECRET-FOUR']) expect(out).not.toContain(secret);
  });

  it('keeps only the name and message of an Error (no stack)', () => {
    const out = redact({ error: new Error('boom') });
    expect(out.error).toEqual({ name: 'Error', message: 'boom' });
  });

  it('drops lines below its level and writes nothing when silent', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (line) => lines.push(line));
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines.map((line) => line.split(' ')[1])).toEqual(['warn', 'error']);
    const silent: string[] = [];
    createLogger('silent', (line) => silent.push(line)).error('x');
    expect(silent).toEqual([]);
  });
});
