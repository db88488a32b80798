// builds a demo mirror: honest audits around a few swaps; prints the base URL and keeps serving if KEEP=1
import { startAuditServer } from '../test/helpers/tamper.js';
import { runAudit } from '../src/io/audit-run.js';
const mirror = process.argv[2] ?? '/tmp/demo.sqlite';
const s = await startAuditServer({ version: 'v12', seed: 'demo' });
const cc = s.ex.cc();
for (let i = 0; i < 6; i++) {
  const r = await runAudit({ baseUrl: s.base, mirrorPath: mirror });
  console.error('audit', i, r.summary.outcome);
  s.clock.advanceMs(600_000);
  for (const p of s.ex.pools().slice(0, 4)) {
    const buy = p.tokenA.id === cc.id ? p.tokenB : p.tokenA;
    s.ex.transfer({ sender: 'alice::1220aa', instrument: { admin: cc.admin, id: cc.id }, amount: String(200 + 50 * i), memo: buy.id });
  }
  s.clock.advanceMs(600_000);
}
console.log(s.base);
if (process.env.KEEP !== '1') await s.close();
