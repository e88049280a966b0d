import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../../../main/base/errors.js';
import { bodyPace } from '../../../main/http/upload-payload.js';

describe('bodyPace: what a step 2 must send in each window', () => {
  const pace = { windowMs: 30_000, minBytes: 1024 };

  it('asks for the minimum, or the rest of the body when less remains, and one byte (its end) once it is all in', () => {
    let received = 0;
    const body = bodyPace(pace, 1500, () => received);
    expect(body.minBytes()).toBe(1024);
    received = 1100;
    expect(body.minBytes()).toBe(400);
    received = 1500;
    expect(body.minBytes()).toBe(1);
  });

  it('a body of no bytes (DELETE) must still end within a window', () => {
    expect(bodyPace(pace, 0, () => 0).minBytes()).toBe(1);
  });

  it('refuses with 408: nothing received, or too few bytes', () => {
    const body = bodyPace(pace, 1500, () => 0);
    const silent = body.error(0, 1024);
    expect(silent).toBeInstanceOf(RequestTimeoutError);
    expect((silent as Error).message).toBe('upload body: nothing received for 30 s');
    expect((body.error(15, 1024) as Error).message).toBe('upload body too slow: 15 bytes received in 30 s, at least 1024 required');
  });
});
