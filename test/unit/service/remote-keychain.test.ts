import { describe, expect, it } from 'vitest';
import { answerKeychainRequest } from '../../../main/service/keychain-host.js';
import { parseParentMessage, parseServiceMessage, type ParentToService } from '../../../main/service/messages.js';
import type { ParentChannel } from '../../../main/service/parent-channel.js';
import { remoteKeychain } from '../../../main/service/remote-keychain.js';
import { keychainSecretStore } from '../../../main/secrets/keychain-secret-store.js';
import { memoryKeychain } from '../../helpers/memory-keychain.js';

/** The service's channel wired to a parent that answers from a memory keychain, through the same checks as the real pair. */
function wiredToParent(keychain = memoryKeychain(), answer = true) {
  const listeners: ((message: ParentToService) => void)[] = [];
  const channel: ParentChannel = {
    async send(message) {
      const request = parseServiceMessage(JSON.parse(JSON.stringify(message)));
      if (request?.type !== 'keychain' || !answer) return;
      const reply = parseParentMessage(await answerKeychainRequest(request, { service: 'Pinfold', entry: keychain.factory }));
      if (reply) for (const listener of listeners) listener(reply);
    },
    onMessage: (listener) => void listeners.push(listener),
    onDisconnect: () => undefined,
    close: () => undefined,
  };
  return { channel, keychain };
}

describe('the keychain through the parent', () => {
  it("reads, writes and deletes the parent's items as if they were local", async () => {
    const { channel, keychain } = wiredToParent();
    const store = keychainSecretStore({ service: 'Pinfold', entry: remoteKeychain(channel), namespace: 'folder-0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e' });
    expect(await store.get('master')).toBeNull();
    const key = Buffer.alloc(32, 7);
    await store.set('master', key);
    expect(await store.get('master')).toEqual(key);
    expect(keychain.accounts('Pinfold')).toEqual(['folder-0b9f3c1e-8a4d-4f7b-9c2e-5d6a7b8c9d0e/secret:master']);
    expect(await store.delete('master')).toBe(true);
    expect(keychain.items.size).toBe(0);
  });

  it('a refusal of the parent (locked keychain, foreign item) is an error in the service', async () => {
    const { channel, keychain } = wiredToParent();
    keychain.state.locked = true;
    const entry = remoteKeychain(channel);
    await expect(entry('Pinfold', 'owner-key').setPassword('x')).rejects.toThrow(/unlock prompt was dismissed/);
    await expect(entry('Other', 'owner-key').getPassword()).rejects.toThrow(/is not one of Pinfold's/);
  });

  it('a parent that never answers: the request fails after its deadline instead of hanging the start', async () => {
    const { channel } = wiredToParent(memoryKeychain(), false);
    await expect(remoteKeychain(channel, 50)('Pinfold', 'owner-key').getPassword()).rejects.toThrow(/did not answer a keychain request within 0.05 s/);
  });
});

describe('messages across the process boundary', () => {
  it('accepts exactly the shapes of the protocol', () => {
    expect(parseServiceMessage({ type: 'ready', url: 'http://127.0.0.1:5080' })).toEqual({ type: 'ready', url: 'http://127.0.0.1:5080' });
    expect(parseServiceMessage({ type: 'fatal', message: 'no' })).toEqual({ type: 'fatal', message: 'no' });
    for (const launchAtLogin of [true, false, null])
      expect(parseServiceMessage({ type: 'desktop-settings', launchAtLogin, theme: 'dark' })).toEqual({ type: 'desktop-settings', launchAtLogin });
    expect(parseServiceMessage({ type: 'keychain', id: 3, op: 'set', service: 'Pinfold', account: 'owner-key', value: 'v', extra: 1 })).toEqual({
      type: 'keychain',
      id: 3,
      op: 'set',
      service: 'Pinfold',
      account: 'owner-key',
      value: 'v',
    });
    expect(parseParentMessage({ type: 'stop' })).toEqual({ type: 'stop' });
    expect(parseParentMessage({ type: 'keychain-result', id: 1, ok: true, value: null })).toEqual({ type: 'keychain-result', id: 1, ok: true, value: null });
    expect(parseParentMessage({ type: 'keychain-result', id: 1, ok: false, message: 'locked' })).toEqual({
      type: 'keychain-result',
      id: 1,
      ok: false,
      message: 'locked',
    });
  });

  it('drops everything else', () => {
    for (const bad of [
      undefined,
      [],
      { type: 'ready', url: 'http://a/b' },
      { type: 'ready', url: 'file:///etc/passwd' },
      { type: 'fatal', message: 'x'.repeat(9000) },
      { type: 'keychain', id: 1.5, op: 'get', service: 'P', account: 'a' },
      { type: 'keychain', id: 1, op: 'list', service: 'P', account: 'a' },
      { type: 'keychain', id: 1, op: 'set', service: 'P', account: 'a' },
      { type: 'keychain', id: 1, op: 'get', service: 'P', account: 'a'.repeat(300) },
      { type: 'desktop-settings' },
      { type: 'desktop-settings', launchAtLogin: 'true' },
    ])
      expect(parseServiceMessage(bad)).toBeNull();
    for (const bad of [null, { type: 'keychain-result', id: 1, ok: true, value: 5 }, { type: 'keychain-result', id: 1, ok: 'yes' }, { type: 'restart' }])
      expect(parseParentMessage(bad)).toBeNull();
  });
});
