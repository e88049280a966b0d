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
const url = await app.listen();
const bare = Fastify(); bare.get('/bare', async () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } })); const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const ts = Math.floor(Date.now() / 1000);
const headers = { 'X-Access-Key': app.ownerKey.access_key, 'X-Access-Secret': app.ownerKey.access_secret };
for (let i = 0; i < 4; i++) {
  for (const [label, u] of [['bare', `${bareUrl}/bare`], ['stats', `${url}/api/v0/stats?ts=${ts}`]]) {
    const t0 = process.cpuUsage(); const elu0 = performance.eventLoopUtilization();
    const r = await autocannon({ url: u, connections: 10, duration: 2, workers: 1, headers });
    const c = process.cpuUsage(t0); const elu = performance.eventLoopUtilization(elu0);
    console.log(label.padEnd(6), Math.round(r.requests.average), 'rps  min', r.requests.min, 'max', r.requests.max, ' elu', elu.utilization.toFixed(2), 'cpu(all threads)/req', ((c.user + c.system) / r.requests.total).toFixed(1));
  }
}
await bare.close(); await app.close();
