import { readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { createLogger } from '../../main/base/logger.js';
import type { CreatedAccessKey } from '../../shared/api-types.js';
import { call, makeTempDir, nowTs } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey } from '../helpers/account-api.js';
import { ownerKeyOf } from '../helpers/owner-key.js';
import { filesUnder } from '../helpers/files-under.js';

/** Every form a secret could be written in: as sent, its decoded bytes, and standard base64. */
function forms(secret: string): Buffer[] {
  const raw = Buffer.from(secret, 'base64url');
  return [Buffer.from(secret, 'utf8'), raw, Buffer.from(raw.toString('base64'), 'utf8'), Buffer.from(raw.toString('hex'), 'utf8')];
}

describe('secrets are never stored or logged in plaintext', () => {
  let dataDir: string;
  let app: PinfoldApp;
  let url: string;
  const log: string[] = [];
  const secrets: CreatedAccessKey[] = [];

  beforeAll(async () => {
    dataDir = await makeTempDir('pinfold-secrets-');
    app = await createApp({
      config: testConfig({ dataDir, port: 0 }),
      logger: createLogger('debug', (line) => log.push(line)),
      env: {},
    });
    // A route that faults, so that the error path of the logger runs on a request that carries secrets.
    app.server.get('/api/v0/test-fault', { config: { access: 'account' } }, async () => {
      throw new Error('simulated fault');
    });
    url = await app.listen();
    const server = { url };
    secrets.push(await createKey(server, ownerKeyOf(app), 'admin-2', ['admin']));
    secrets.push(await createKey(server, ownerKeyOf(app), 'reader', ['read']));
    await createUser(server, ownerKeyOf(app), 'secret-user');
    secrets.push(await createUserKey(server, ownerKeyOf(app), 'secret-user', 'k', ['admin']));
    for (const key of secrets) {
      await call(server, 'GET', '/api/v0/stats', { key });
      await call(server, 'GET', '/api/v0/stats', { key, signed: true });
      await call(server, 'GET', '/api/v0/keys', { key, noTs: true, query: { ts: nowTs() - 10_000 } });
      await call(server, 'GET', '/api/v0/test-fault', { key });
      await call(server, 'GET', '/api/v0/stats', { key: { access_key: key.access_key, access_secret: `${key.access_secret.slice(1)}A` } });
    }
  });

  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the server log saw the requests (the fault was logged) but never a secret', () => {
    const text = log.join('');
    expect(text).toContain('request failed');
    expect(text).toContain('simulated fault');
    for (const key of [...secrets, ownerKeyOf(app)]) for (const form of forms(key.access_secret)) expect(text).not.toContain(form.toString('utf8'));
  });

  it('no file of the data folder holds an access secret in any form, while the server runs (WAL) and after it stops', async () => {
    const check = async (): Promise<string[]> => {
      const files = await filesUnder(dataDir);
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const key of secrets)
          for (const form of forms(key.access_secret)) expect(bytes.includes(form), `${relative(dataDir, file)} holds a secret`).toBe(false);
        // The owner's secret is handed over in owner-key.json, and only there.
        if (file !== join(dataDir, 'owner-key.json'))
          for (const form of forms(ownerKeyOf(app).access_secret))
            expect(bytes.includes(form), `${relative(dataDir, file)} holds the owner secret`).toBe(false);
      }
      return files.map((file) => relative(dataDir, file));
    };
    const whileRunning = await check();
    expect(whileRunning).toContain('pinfold.db');
    expect(whileRunning).toContain('pinfold.db-wal');
    expect(readFileSync(join(dataDir, 'pinfold.db-wal')).length).toBeGreaterThan(0);
    await app.close();
    expect(await check()).toContain('pinfold.db');
  });

  it('master.key and owner-key.json are 0600', () => {
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'owner-key.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dataDir, 'owner-key.json'), 'utf8'))).toEqual(ownerKeyOf(app));
  });
});
