import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './main/store/db/database.js';
import { accountById, usageOf } from './main/store/db/accounts-queries.js';
const dir = await mkdtemp(join(tmpdir(), 'pb-'));
const db = openDatabase(join(dir, 'p.db'));
db.exec("INSERT INTO accounts (uuid,name,email,provider,plan_id,next_plan_id,created_at) VALUES ('u','n','e','p',1,1,0); INSERT INTO usage (account_id, period_start) VALUES (1, 0)");
const all = db.prepare('SELECT * FROM accounts WHERE id = ?');
const raw = db.prepare('SELECT * FROM accounts WHERE id = ?').raw(true);
const one = db.prepare('SELECT id FROM accounts WHERE id = ?').pluck();
const dv = db.prepare('SELECT total_changes(), data_version FROM pragma_data_version').raw(true);
const join2 = db.prepare('SELECT a.*, u.period_start, u.ingress, u.egress, u.pinned_count, u.pinned_bytes, u.ipns_count FROM accounts a JOIN usage u ON u.account_id = a.id WHERE a.id = ?');
function time(label: string, f: () => unknown) {
  let best = Infinity;
  for (let r = 0; r < 7; r++) { const n = 50000; const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const d = process.cpuUsage(t0); best = Math.min(best, (d.user + d.system) / n); }
  console.log(label.padEnd(20), best.toFixed(2), 'us');
}
time('select * get', () => all.get(1));
time('select * raw', () => raw.get(1));
time('select id pluck', () => one.get(1));
time('stamp', () => dv.get());
time('accountById', () => accountById(db, 1));
time('usageOf', () => usageOf(db, 1));
time('join', () => join2.get(1));
console.log(dv.get());
