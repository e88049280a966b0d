import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createApp } from './main/app.js';
import { defaultConfig } from './main/base/config.js';
const autocannon = createRequire(import.meta.url)('autocannon') as any;
const dataDir = await mkdtemp(join(tmpdir(), 'pb-'));
const app = await createApp({ config: defaultConfig({ dataDir, port: 0 }), env: {} });
const small = () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } });
app.server.get('/pub', { config: { access: 'public' } }, async () => small());
app.server.get('/acc', { config: { access: 'account' } }, async () => small());
const url = await app.listen();
const bare = Fastify(); bare.get('/bare', async () => small()); const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const ts = Math.floor(Date.now() / 1000);
const headers = { 'X-Access-Key': app.ownerKey.access_key, 'X-Access-Secret': app.ownerKey.access_secret };
const d = Number(process.argv[2] ?? 3);
for (const round of [1, 2]) {
  for (const [label, u] of [['bare', `${bareUrl}/bare`], ['pub', `${url}/pub`], ['acc', `${url}/acc?ts=${ts}`], ['stats', `${url}/api/v0/stats?ts=${ts}`]]) {
    const r = await autocannon({ url: u, connections: 10, duration: d, workers: 1, headers });
    console.log(round, label.padEnd(6), Math.round(r.requests.average), r.non2xx);
  }
}
await bare.close(); await app.close();
