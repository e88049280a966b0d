import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from './main/app.js';
import { defaultConfig } from './main/base/config.js';
import { authenticate } from './main/http/auth.js';
import { accountUsage } from './main/accounts/usage.js';
import Fastify from 'fastify';
const dataDir = await mkdtemp(join(tmpdir(), 'pb-'));
const app = await createApp({ config: defaultConfig({ dataDir, port: 0 }), env: {} });
const ts = Math.floor(Date.now() / 1000);
const headers = { 'x-access-key': app.ownerKey.access_key, 'x-access-secret': app.ownerKey.access_secret, host: '127.0.0.1:1' };
let ctx: any;
app.server.get('/pub', { config: { access: 'public' } }, async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } }));
app.server.get('/acc', { config: { access: 'account' } }, async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } }));
await app.server.ready();
const bare = Fastify(); bare.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } })); await bare.ready();
async function time(label: string, f: () => Promise<unknown>) {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const n = 4000; const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) await f();
    const d = process.cpuUsage(t0); best = Math.min(best, (d.user + d.system) / n);
  }
  console.log(label.padEnd(12), best.toFixed(1), 'us');
}
await time('bare', () => bare.inject({ method: 'GET', url: '/bare', headers }));
await time('pub', () => app.server.inject({ method: 'GET', url: '/pub', headers }));
await time('acc', () => app.server.inject({ method: 'GET', url: `/acc?ts=${ts}`, headers }));
await time('stats', () => app.server.inject({ method: 'GET', url: `/api/v0/stats?ts=${ts}`, headers }));
// Domain functions alone
const accounts = (app as any);
