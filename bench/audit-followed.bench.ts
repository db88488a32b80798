/**
 * What judging the followed ledger costs an audit (issue 26 item 3; docs/decisions/audit.md "Followed
 * history in the audit"). The reference server in this process (the 8 seed pools) with its JSON Ledger
 * API; BENCH_FOLLOWED_SWAPS swaps (default 5,000) on its ledger, one `mirror follow` round into a fresh
 * SQLite mirror, then `audit --mirror` in process (unpaced) three times: on a mirror that follows
 * nothing (one snapshot recorded first, the baseline), on the following mirror (its first audit judges
 * every followed contract), and again (nothing new: each pool is read from its seed, the last contract
 * judged, so only the seeds are verified). Prints the history phase and the whole audit per case.
 *
 *   npx tsx bench/audit-followed.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMirrorStore } from '../src/io/store/index.js';
import { type AuditReport, runAudit } from '../src/run/audit.js';
import { runMirrorFollow } from '../src/run/mirror-follow.js';
import { createSeededRng } from '../src/sim/rng.js';
import { simulateRandomSwap } from '../src/sim/traffic.js';
import { mintReaderToken } from '../test/helpers/followed-ledger.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const swaps = Number(process.env.BENCH_FOLLOWED_SWAPS ?? 5000);
const SECRET = new TextEncoder().encode('the ledger api secret of the followed audit bench');
const AUDITOR = 'auditor::1220be0d';

const server = await startAuditServer({ version: 'v12', ledger: { secret: SECRET, auditorParty: AUDITOR } });
const { ledgerUrl } = server;
const token = await mintReaderToken(SECRET, 'bench', [AUDITOR]);
const rng = createSeededRng('audit-followed-bench');
const t0 = performance.now();
let done = 0;
for (let tries = 0; done < swaps && tries < swaps * 20; tries += 1) {
  server.clock.advanceMs(200);
  if (simulateRandomSwap(server.ex, rng)?.status === 'executed') done += 1;
}
server.clock.advanceMs(6000);
console.log(`${done} swaps on the ledger in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const dir = mkdtempSync(join(tmpdir(), 'audit-followed-bench-'));
const plain = join(dir, 'plain.db');
const followed = join(dir, 'followed.db');
const t1 = performance.now();
const store = await openMirrorStore(followed);
await runMirrorFollow({ store, ledger: { baseUrl: ledgerUrl, token, party: AUDITOR }, once: true });
await store.close();
console.log(`mirror follow --once: ${((performance.now() - t1) / 1000).toFixed(1)} s`);

const audit = (mirrorPath: string): Promise<AuditReport> =>
  runAudit({ baseUrl: server.base, mirrorPath, maxRps: 1000 });
const show = (name: string, r: AuditReport): void => {
  const f = r.summary.coverage.followed;
  console.log(
    `${name}: ${r.summary.outcome}, history phase ${r.summary.phasesMs?.history} ms, audit ${r.summary.durationMs} ms; ${f?.text ?? 'no followed line'}`,
  );
};
await audit(plain);
show('no followed events (2nd audit of its mirror)', await audit(plain));
show('followed, first audit', await audit(followed));
show('followed, nothing new', await audit(followed));
await server.close();
rmSync(dir, { recursive: true, force: true });
