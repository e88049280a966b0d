import { describe, expect, it } from 'vitest';
import { kuboServiceAddCommand, psaEndpoint } from '../../../renderer/lib/remote-pinning.js';

describe('Pinfold as a remote pinning service, as the Keys page tells it', () => {
  it('names the /psa endpoint of the origin the window talks to, and the Kubo command that adds it', () => {
    expect(psaEndpoint('http://127.0.0.1:5080')).toBe('http://127.0.0.1:5080/psa');
    expect(psaEndpoint('http://[::1]:5080/')).toBe('http://[::1]:5080/psa');
    expect(kuboServiceAddCommand('http://127.0.0.1:5080')).toBe('ipfs pin remote service add pinfold http://127.0.0.1:5080/psa <token>');
    // With the token the service has just given (a new key), the command is ready to paste.
    expect(kuboServiceAddCommand('http://127.0.0.1:5080', 'AK.secret')).toBe('ipfs pin remote service add pinfold http://127.0.0.1:5080/psa AK.secret');
  });
});
