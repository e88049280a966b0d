import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './main/store/db/database.js';
const dir = await mkdtemp(join(tmpdir(), 'pb-'));
const db = openDatabase(join(dir, 'p.db'));
db.exec("INSERT INTO accounts (uuid,name,email,provider,plan_id,next_plan_id,created_at) VALUES ('u','n','e','p',1,1,0)");
const sel = db.prepare('SELECT * FROM accounts WHERE id = ?');
const dv = db.prepare('PRAGMA data_version').pluck();
function time(label: string, f: () => unknown) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) { const n = 50000; const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const d = process.cpuUsage(t0); best = Math.min(best, (d.user + d.system) / n); }
  console.log(label.padEnd(20), best.toFixed(2), 'us');
}
const mode = process.argv[2];
if (mode === 'sel') { for (let i = 0; i < 100000; i++) sel.get(1); }
else if (mode === 'dv') { for (let i = 0; i < 100000; i++) dv.get(); }
else { time('select', () => sel.get(1)); time('data_version', () => dv.get()); console.log(dv.get()); }
