/**
 * The slow part of the soundness tests (test/e2e/audit-soundness.test.ts holds the rest): the
 * fast-check property over random traffic, the /stats TVL tests that ran after it in one file (kept
 * after it: they run on the state it leaves), and the probe quotes whose proof is refused or whose
 * contract was superseded. An audit re-fetches a quote it could not check up to three times, each
 * after the 5 s pool snapshot expired, so each of these runs 7–17 s of waiting.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runAudit } from '../../src/run/audit.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { auditMovingQuotes, auditWith, type QuoteJson } from '../e2e/soundness-audits.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ seed: 'soundness' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

describe('property: random traffic interleaved with the audit requests', () => {
  const paths = [
    '/pools/proof',
    '/pools/state',
    '/tokens/info',
    '/exchange/info',
    '/pools/info',
    '/stats',
    '/volume',
    '/aggregator/pairs',
    '/aggregator/tickers',
    '/aggregator/orderbook',
    '/connect/quote',
  ];
  it('no error finding on the honest exchange', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            after: fc.constantFrom(...paths),
            swaps: fc.integer({ min: 0, max: 6 }),
            advanceMs: fc.integer({ min: 0, max: 12_000 }),
          }),
          { maxLength: 5 },
        ),
        fc.boolean(),
        async (inj, probe) => {
          s.clock.advanceMs(1_000);
          const r = await auditWith(s, inj, probe);
          expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);
});

describe('/stats pool TVL names its pool snapshot (pool_tvl.updated_at)', () => {
  /** traffic before the audit and between its requests; an optional tamper of /stats */
  async function auditStats(tamperTvl?: (tvl: string) => string) {
    s.clock.advanceMs(61_000);
    for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
    let injected = false;
    s.setTamper((ctx) => {
      if (!injected && ctx.path === '/pools/state') {
        injected = true;
        for (let k = 0; k < 8; k++) simulateRandomSwap(s.ex, s.ex.rng);
      }
      if (ctx.path === '/stats' && tamperTvl !== undefined) {
        const j = ctx.json as { stats: { pool_tvl: { tvl_cc: string } } };
        j.stats.pool_tvl.tvl_cc = tamperTvl(j.stats.pool_tvl.tvl_cc);
        return { json: j };
      }
      return undefined;
    });
    try {
      return await runAudit({ baseUrl: s.base, now: () => s.clock.nowMs(), exitCodeOf });
    } finally {
      s.setTamper(undefined);
    }
  }

  it('is decided under traffic: the total is compared with the proof set of that snapshot', async () => {
    const r = await auditStats();
    const check = r.checks.find((k) => k.name === 'stats.tvl');
    expect(check?.status).toBe('pass');
    expect(r.findings.filter((f) => f.code === 'MARKET_DATA_STALE_UNVERIFIED')).toEqual([]);
    expect(r.summary.exitCode).toBe(0);
  }, 30_000);

  it('a total off by one unit in the 10th place is an error under traffic (no honest timeline)', async () => {
    const r = await auditStats((tvl) => {
      const [i, f = ''] = tvl.split('.');
      return `${i}.${(BigInt(f) + 1n).toString().padStart(10, '0')}`;
    });
    const f = r.findings.find((x) => x.code === 'STATS_TVL_MISMATCH');
    if (f === undefined)
      console.log(
        JSON.stringify(
          r.findings.filter((x) => x.area === 'volume' || x.code.startsWith('MARKET')),
          null,
          1,
        ),
      );
    expect(f?.severity).toBe('error');
    expect(f?.label).toBe('proven');
    expect(r.summary.exitCode).toBe(1);
  }, 30_000);

  it('a snapshot no proof of the audit showed is fetched again with a proof, not judged', async () => {
    // /stats answered from a snapshot taken between the proofs (the clock jumps past the 5 s
    // window right before /stats and again after it): the first /stats is undecidable, the
    // re-fetch round fetches /stats and /pools/proof in one window and decides it
    let jumps = 0;
    s.clock.advanceMs(61_000);
    for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
    s.setTamper((ctx) => {
      if (jumps < 2 && (ctx.path === '/pools/info' || (ctx.path === '/stats' && jumps === 1))) {
        jumps++;
        s.clock.advanceMs(5_000);
        for (let k = 0; k < 8; k++) simulateRandomSwap(s.ex, s.ex.rng);
      }
      return undefined;
    });
    try {
      const r = await runAudit({ baseUrl: s.base, now: () => s.clock.nowMs(), exitCodeOf });
      expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
      expect(r.checks.find((k) => k.name === 'stats.tvl')?.status).toBe('pass');
      expect(r.summary.exitCode).toBe(0);
    } finally {
      s.setTamper(undefined);
    }
  }, 30_000);
});

describe('probe quotes carry the reserve contract they were priced on (?include_proof=true)', () => {
  it('a blob that does not decode is no proof and an accusation: QUOTE_PROOF_INVALID, never a pass', async () => {
    const r = await auditMovingQuotes(s, (q) => {
      const [i, f = ''] = q.returned.amount.split('.');
      q.returned.amount = `${BigInt(i ?? '0') + 1n}.${f}`;
      for (const h of q.pools) if (h.created_event_blob !== undefined) h.created_event_blob = 'AAAA';
    });
    // the accepted probes (the rejected ones carry no quote)
    const accepted = r.quoteChecks.filter((k) =>
      ['quote.minimum', 'quote.mid', 'quote.affiliate'].includes(k.name),
    );
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.some((k) => k.status === 'pass')).toBe(false);
    const bad = r.findings.filter((f) => f.code === 'QUOTE_PROOF_INVALID');
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.every((f) => f.severity === 'error' && f.label === 'proven')).toBe(true);
    expect(bad[0]?.evidence.reasons).toContain('BLOB_MALFORMED');
    expect(r.summary.exitCode).toBe(1);
  }, 60_000);

  it('a genuine blob of another contract is no proof of the named one: QUOTE_PROOF_INVALID', async () => {
    // the blob of some other pool's current contract, beside the contract ID the hop names
    const other = (await (await fetch(`${s.directBase}/pools/proof`)).json()) as {
      data: { pools: { pool_id: string; reserve_contract: { created_event_blob: string } }[] };
    };
    const r = await auditMovingQuotes(s, (q) => {
      for (const h of q.pools) {
        const foreign = other.data.pools.find((p) => p.pool_id !== h.pool_id);
        if (h.created_event_blob !== undefined && foreign !== undefined)
          h.created_event_blob = foreign.reserve_contract.created_event_blob;
      }
    });
    const bad = r.findings.filter((f) => f.code === 'QUOTE_PROOF_INVALID');
    expect(bad.length).toBeGreaterThan(0);
    expect(bad[0]?.evidence.reasons).toContain('PUBLISHED_ID_MISMATCH');
    expect(r.summary.exitCode).toBe(1);
  }, 60_000);
});

describe('a quote naming a contract superseded before the audit began', () => {
  it('is not checked against that contract: could-not-check, never a pass', async () => {
    s.clock.advanceMs(61_000);
    // an old contract of the CC/USDCx pool, with its genuine blob
    const old = (await (await fetch(`${s.directBase}/pools/proof`)).json()) as {
      data: {
        pools: { pool_id: string; reserve_contract: { contract_id: string; created_event_blob: string } }[];
      };
    };
    const first = old.data.pools[0];
    if (first === undefined) throw new Error('no pool');
    // the pool moves on (a new contract), and the pool snapshot with it
    while (
      s.ex.pools().find((p) => p.poolId === first.pool_id)?.reserveContract.contractId ===
      first.reserve_contract.contract_id
    )
      simulateRandomSwap(s.ex, s.ex.rng);
    s.clock.advanceMs(6_000);
    s.setTamper((ctx) => {
      if (ctx.path !== '/connect/quote' || ctx.status !== 200) return undefined;
      const q = ctx.json as QuoteJson;
      for (const h of q.pools)
        if (h.pool_id === first.pool_id) {
          h.contract_id = first.reserve_contract.contract_id;
          h.created_event_blob = first.reserve_contract.created_event_blob;
        }
      return { json: q };
    });
    try {
      const r = await runAudit({
        baseUrl: s.base,
        probeQuotes: true,
        now: () => s.clock.nowMs(),
        exitCodeOf,
      });
      const mine = r.checks.filter(
        (k) => ['quote.minimum', 'quote.mid', 'quote.affiliate'].includes(k.name) && k.pool === first.pool_id,
      );
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((k) => k.status === 'could-not-check')).toBe(true);
      expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    } finally {
      s.setTamper(undefined);
    }
  }, 60_000);
});
