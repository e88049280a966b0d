import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../renderer/api/api-error.js';
import { checkCredentials, clearSignIn, loadSignIn, saveSignIn } from '../../../renderer/api/credentials.js';
import { describeError, sentence } from '../../../renderer/lib/messages.js';
import { memoryStorage } from '../../helpers/memory-storage.js';

describe('checkCredentials', () => {
  it('trims what was pasted', () => {
    expect(checkCredentials('  key-1\n', '\tsecret_-1 ')).toEqual({ ok: true, credentials: { accessKey: 'key-1', accessSecret: 'secret_-1' } });
  });

  it('names the empty or unusable field', () => {
    expect(checkCredentials('', 'secret')).toMatchObject({ ok: false, field: 'accessKey' });
    expect(checkCredentials('key', '   ')).toMatchObject({ ok: false, field: 'accessSecret' });
    expect(checkCredentials('key with space', 'secret')).toMatchObject({ ok: false, field: 'accessKey' });
    expect(checkCredentials('key', 'sécret')).toMatchObject({ ok: false, field: 'accessSecret' });
  });
});

describe('session storage of the sign-in', () => {
  it('saves, loads and clears a pasted key', () => {
    const storage = memoryStorage();
    expect(loadSignIn(storage)).toBeNull();
    saveSignIn(storage, { credentials: { accessKey: 'k', accessSecret: 's' }, kind: 'key' });
    expect(JSON.parse(storage.entries.get('pinfold.credentials') ?? '')).toEqual({ accessKey: 'k', accessSecret: 's' });
    expect(loadSignIn(storage)).toEqual({ credentials: { accessKey: 'k', accessSecret: 's' }, kind: 'key' });
    clearSignIn(storage);
    expect(loadSignIn(storage)).toBeNull();
    expect(storage.entries.size).toBe(0);
  });

  it('remembers that a key is a session key from a sign-in link (Sign out deletes it on the service)', () => {
    const storage = memoryStorage();
    saveSignIn(storage, { credentials: { accessKey: 'k', accessSecret: 's' }, kind: 'session' });
    expect(loadSignIn(storage)).toEqual({ credentials: { accessKey: 'k', accessSecret: 's' }, kind: 'session' });
  });

  it('drops a damaged entry instead of using it', () => {
    const storage = memoryStorage();
    for (const damaged of [
      '{not json',
      JSON.stringify({ accessKey: 'k', accessSecret: 42 }),
      JSON.stringify({ accessKey: 'k', accessSecret: 's', session: 'yes' }),
      JSON.stringify({ accessKey: 'k y', accessSecret: 's' }),
    ]) {
      storage.setItem('pinfold.credentials', damaged);
      expect(loadSignIn(storage)).toBeNull();
      expect(storage.entries.size).toBe(0);
    }
  });
});

describe('describeError', () => {
  it("keeps the service message, as a sentence, and says what to do, by the failure's error string", () => {
    expect(describeError(new ApiError('http', 400, 'name is longer than 255 characters', 'bad_input'))).toBe('Name is longer than 255 characters.');
    expect(describeError(new ApiError('http', 409, 'alias already used: site', 'conflict'))).toBe('Alias already used: site.');
    expect(describeError(new ApiError('http', 401, 'invalid access secret', 'unauthenticated'))).toBe(
      'The service did not accept this access key: invalid access secret.',
    );
    expect(describeError(new ApiError('http', 403, 'permission missing: admin', 'permission'))).toBe('Not allowed: permission missing: admin.');
    expect(describeError(new ApiError('http', 402, 'balance 0.00 is below the fee 4.99', 'balance'))).toBe(
      'Balance 0.00 is below the fee 4.99. Nothing was charged.',
    );
    expect(describeError(new ApiError('http', 404, 'no such pin', 'not_found'))).toBe('Not found: no such pin.');
    expect(describeError(new ApiError('http', 413, 'body is larger than size', 'too_large'))).toBe('Too large: body is larger than size.');
    expect(describeError(new ApiError('http', 423, 'cid: x is locked', 'locked'))).toBe('Cid: x is locked. Try again in a moment.');
    expect(describeError(new ApiError('http', 429, 'too many event streams', 'too_many_requests'))).toBe('Too many event streams. Try again in a moment.');
    expect(describeError(new ApiError('http', 500, 'internal error', 'internal'))).toBe('The service failed (500): internal error.');
    expect(describeError(new ApiError('http', 508, 'a -> a is a loop', 'loop'))).toBe('The service failed (508): a -> a is a loop.');
    expect(describeError(new ApiError('http', 418, 'teapot'))).toBe('The service answered 418: teapot.');
    expect(describeError(new ApiError('network', 0, 'Cannot reach the Pinfold service.'))).toBe('Cannot reach the Pinfold service.');
    expect(describeError(new TypeError('boom'))).toBe('Something went wrong: boom');
    expect(describeError('?')).toBe('Something went wrong.');
  });

  it("names the plan limit that was reached in words, from the envelope's limit, never from msg", () => {
    expect(describeError(new ApiError('http', 403, 'plan limit reached: pinned_bytes', 'plan_limit', { limit: 'pinned_bytes' }))).toBe(
      "Your plan's limit on pinned storage is reached. Unpin something or move to a larger plan.",
    );
    expect(describeError(new ApiError('http', 403, 'plan limit reached: ipns', 'plan_limit', { limit: 'ipns' }))).toContain('IPNS names');
    // msg's wording decides nothing: a plan limit reworded is still one, and a 403 saying the words is not one.
    expect(describeError(new ApiError('http', 403, 'over the pins quota', 'plan_limit', { limit: 'pinned_count' }))).toBe(
      "Your plan's limit on pins is reached. Unpin something or move to a larger plan.",
    );
    expect(describeError(new ApiError('http', 403, 'plan limit reached: pinned_bytes', 'permission'))).toBe('Not allowed: plan limit reached: pinned_bytes.');
    expect(describeError(new ApiError('http', 403, 'plan limit reached: a_new_counter', 'plan_limit'))).toBe(
      "Your plan's limit is reached. Unpin something or move to a larger plan.",
    );
  });

  it('sentence() capitalises and ends with a full stop, once', () => {
    expect(sentence('  done ')).toBe('Done.');
    expect(sentence('Really?')).toBe('Really?');
    expect(sentence('')).toBe('');
  });
});
