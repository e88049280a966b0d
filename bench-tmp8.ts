function base(i: number) { return { name: 'owner', provider: 'local', email: '', email_verified: false, plan: 'Local', next_plan: 'Local', next_bill_at: i, pinned_count: 0, pinned_count_limit: 1, pinned_bytes: 0, pinned_bytes_limit: 2, ingress: 0, ingress_limit: 3, egress: 0, egress_limit: 4, ipns: 0, ipns_limit: 5 }; }
const variants: Record<string, (i: number) => object> = {
  spread: (i) => ({ ...base(i), eth_addr: '', token_amount: '1000.00' }),
  assign: (i) => Object.assign(base(i), { eth_addr: '', token_amount: '1000.00' }),
  addprops: (i) => { const b = base(i) as Record<string, unknown>; b.eth_addr = ''; b.token_amount = '1000.00'; return b; },
  literal: (i) => ({ name: 'owner', provider: 'local', email: '', email_verified: false, plan: 'Local', next_plan: 'Local', next_bill_at: i, pinned_count: 0, pinned_count_limit: 1, pinned_bytes: 0, pinned_bytes_limit: 2, ingress: 0, ingress_limit: 3, egress: 0, egress_limit: 4, ipns: 0, ipns_limit: 5, eth_addr: '', token_amount: '1000.00' }),
};
let sink = 0;
for (const [k, f] of Object.entries(variants)) {
  let best = Infinity;
  for (let r = 0; r < 7; r++) { const n = 200000; const t0 = process.cpuUsage(); for (let i = 0; i < n; i++) sink += JSON.stringify(f(i)).length; const d = process.cpuUsage(t0); best = Math.min(best, (d.user + d.system) / n); }
  console.log(k.padEnd(10), (best * 1000).toFixed(0), 'ns incl stringify');
}
