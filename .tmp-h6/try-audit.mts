import { startAuditServer } from '../test/helpers/tamper.js';
import { runAudit } from '../src/io/audit-run.js';
const v = (process.argv[2] ?? 'v12') as 'v12';
const s = await startAuditServer({ version: v });
const t=Date.now(); const r = await runAudit({ baseUrl: s.base, probeQuotes: process.argv[3]!=='noq', mirrorPath: process.argv[4], onProgress: (m) => console.log(Date.now()-t, m) });
console.log(JSON.stringify(r.summary, null, 1));
for (const f of r.findings) console.log(f.code, f.pool, f.message);
for (const c of r.checks.filter(c=>c.status!=='pass')) console.log(c.name, c.pool, c.status, c.note);
await s.close();
