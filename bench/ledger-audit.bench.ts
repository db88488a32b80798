/**
 * The cost of the ledger checks (issue 26 target: `audit --ledger-api` ≤ 1.5 × the audit without it on
 * the 8-pool demo; results in docs/bench/audit.md "Ledger checks"): `runAudit` against the bundled
 * server (BENCH_LEDGER_POOLS extra pools, default 0: the 8 seed pools) with and without a participant
 * speaking the JSON Ledger API v2 (test/helpers/fake-participant.ts, a real HTTP server on this
 * machine, answering from the exchange's own contracts), alternating, BENCH_LEDGER_RUNS each (default
 * 15), at the default pacing (50 requests/s, 8 in flight) and unpaced (only unpaced with
 * BENCH_LEDGER_UNPACED=1). Prints the medians and the ratio.
 *
 *   npx tsx bench/ledger-audit.bench.ts
 */
import { decodeCreatedEventBlob } from '../src/core/codec/blob-decoder.js';
import type { PoolsProofResponse } from '../src/core/wire/pools-proof.js';
import { runAudit } from '../src/run/audit.js';
import { type ParticipantContract, startFakeParticipant } from '../test/helpers/fake-participant.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const extraPools = Number(process.env.BENCH_LEDGER_POOLS ?? 0);
const runs = Number(process.env.BENCH_LEDGER_RUNS ?? 15);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const server = await startAuditServer({ version: 'v12', extraPools });
const doc = (await (await fetch(`${server.directBase}/pools/proof`)).json()) as PoolsProofResponse;
const contracts: ParticipantContract[] = doc.data.pools.map((p) => {
  const r = p.reserve_contract;
  const d = decodeCreatedEventBlob(r.created_event_blob);
  return {
    contractId: r.contract_id,
    blob: r.created_event_blob,
    createdAt: r.ledger_created_at,
    templateId: `${r.template.package_id}:${r.template.module_name}:${r.template.entity_name}`,
    packageName: r.template.package_name,
    signatories: d.signatories,
  };
});
const party = contracts[0]?.signatories[0] ?? 'operator';
const participant = await startFakeParticipant({ token: 'bench-token', party });
participant.set({ contracts });
try {
  const modes = [{}, { maxRps: 1000, maxInFlight: 16 }];
  for (const pacing of process.env.BENCH_LEDGER_UNPACED === '1' ? modes.slice(1) : modes) {
    const plain: number[] = [];
    const ledger: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      for (const withLedger of [false, true]) {
        const t0 = performance.now();
        const r = await runAudit({
          baseUrl: server.base,
          ...pacing,
          ...(withLedger ? { ledger: { baseUrl: participant.url, token: 'bench-token', party } } : {}),
        });
        const ms = performance.now() - t0;
        if (r.summary.exitCode !== 0) throw new Error(`audit exit ${r.summary.exitCode}`);
        if (withLedger && r.summary.assurance.level !== 'ledger-confirmed')
          throw new Error('not ledger-confirmed');
        if (i > 0) (withLedger ? ledger : plain).push(ms); // the first round warms up
      }
    }
    const a = median(plain);
    const b = median(ledger);
    console.log(
      `${contracts.length} pools, ${'maxRps' in pacing ? 'unpaced' : 'default pacing'}: without ${a.toFixed(0)} ms, with --ledger-api ${b.toFixed(0)} ms (median of ${runs}), ratio ${(b / a).toFixed(2)}`,
    );
  }
} finally {
  await participant.close();
  await server.close();
}
