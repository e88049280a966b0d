import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createApp } from './main/app.js';
import { defaultConfig } from './main/base/config.js';
const run = promisify(execFile);
const dataDir = await mkdtemp(join(tmpdir(), 'pb-'));
const app = await createApp({ config: defaultConfig({ dataDir, port: 0 }), env: {} });
const small = () => ({ code: 200, msg: 'ok', data: { name: 'bench', pinned_count: 0, ingress: 0 } });
app.server.get('/pub', { config: { access: 'public' } }, async () => small());
app.server.get('/acc', { config: { access: 'account' } }, async () => small());
const url = await app.listen();
const bare = Fastify(); bare.get('/bare', async () => small()); const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
const ts = Math.floor(Date.now() / 1000);
const hs = ['-H', `X-Access-Key=${app.ownerKey.access_key}`, '-H', `X-Access-Secret=${app.ownerKey.access_secret}`];
const d = process.argv[2] ?? '3';
const res: Record<string, number[]> = {};
for (const round of [1, 2, 3]) {
  for (const [label, u] of [['bare', `${bareUrl}/bare`], ['pub', `${url}/pub`], ['acc', `${url}/acc?ts=${ts}`], ['stats', `${url}/api/v0/stats?ts=${ts}`]] as const) {
    const p = run(process.execPath, ['node_modules/autocannon/autocannon.js', '-c', '10', '-d', d, '-j', ...hs, u], { maxBuffer: 1 << 24 });
    await new Promise((r) => setTimeout(r, 300));
    const t0 = process.cpuUsage();
    const { stdout } = await p;
    const c = process.cpuUsage(t0);
    const j = JSON.parse(stdout);
    const us = (c.user + c.system) / j.requests.total;
    (res[label] ??= []).push(us);
    console.log(round, label.padEnd(6), Math.round(j.requests.average), 'rps', us.toFixed(1), 'us cpu/req', j.non2xx);
  }
}
for (const [k, v] of Object.entries(res)) console.log(k, 'min cpu/req', Math.min(...v).toFixed(1));
await bare.close(); await app.close();
