import { describe, expect, it } from 'vitest';
import { checkCredentials, clearCredentials, loadCredentials, saveCredentials, type KeyValueStorage } from '../../../renderer/api/credentials.js';
import { ApiError } from '../../../renderer/api/client.js';
import { describeError } from '../../../renderer/lib/messages.js';

function memoryStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

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

describe('session storage of credentials', () => {
  it('saves, loads and clears', () => {
    const storage = memoryStorage();
    expect(loadCredentials(storage)).toBeNull();
    saveCredentials(storage, { accessKey: 'k', accessSecret: 's' });
    expect(loadCredentials(storage)).toEqual({ accessKey: 'k', accessSecret: 's' });
    clearCredentials(storage);
    expect(loadCredentials(storage)).toBeNull();
    expect(storage.entries.size).toBe(0);
  });

  it('drops a damaged entry instead of using it', () => {
    const storage = memoryStorage();
    storage.setItem('pinfold.credentials', '{not json');
    expect(loadCredentials(storage)).toBeNull();
    expect(storage.entries.size).toBe(0);
    storage.setItem('pinfold.credentials', JSON.stringify({ accessKey: 'k', accessSecret: 42 }));
    expect(loadCredentials(storage)).toBeNull();
    expect(storage.entries.size).toBe(0);
  });
});

describe('describeError', () => {
  it('keeps the service message and says what to do', () => {
    expect(describeError(new ApiError('http', 401, 'invalid access secret'))).toBe(
      'The service did not accept this access key: invalid access secret.',
    );
    expect(describeError(new ApiError('http', 403, 'permission denied'))).toContain('admin permission');
    expect(describeError(new ApiError('http', 500, 'internal error'))).toBe('The service answered 500: internal error.');
    expect(describeError(new ApiError('network', 0, 'Cannot reach the Pinfold service.'))).toBe('Cannot reach the Pinfold service.');
    expect(describeError(new TypeError('boom'))).toBe('Something went wrong: boom');
  });
});
