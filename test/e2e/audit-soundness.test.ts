/**
 * Soundness under traffic (docs/findings.md "Soundness"): the simulator in-process with a manual
 * clock, swaps injected at chosen points between the auditor's requests (and the clock moved
 * across the 5 s pool-snapshot and the cache windows), and the audit must raise no error finding
 * on the honest exchange. A fast-check property interleaves random traffic with the requests.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { runAudit } from '../../src/run/audit.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ seed: 'soundness' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

interface Injection {
  /** after the response to this path (below /v1/public) */
  readonly after: string;
  readonly swaps: number;
  readonly advanceMs: number;
}

async function auditWith(injections: readonly Injection[], probeQuotes = true) {
  const pending = [...injections];
  s.setTamper((ctx) => {
    for (let i = 0; i < pending.length; i++) {
      const inj = pending[i];
      if (inj === undefined || inj.after !== ctx.path) continue;
      pending.splice(i, 1);
      s.clock.advanceMs(inj.advanceMs);
      for (let k = 0; k < inj.swaps; k++) simulateRandomSwap(s.ex, s.ex.rng);
      break;
    }
    return undefined;
  });
  try {
    const r = await runAudit({ baseUrl: s.base, probeQuotes, now: () => s.clock.nowMs(), exitCodeOf });
    return { ...r, errors: r.findings.filter((f) => f.severity === 'error') };
  } finally {
    s.setTamper(undefined);
  }
}

describe('swaps between the auditor requests raise no error', () => {
  const points: [string, Injection[]][] = [
    ['between proof and state', [{ after: '/pools/proof', swaps: 6, advanceMs: 1_000 }]],
    ['between state and the second proof', [{ after: '/pools/state', swaps: 6, advanceMs: 6_000 }]],
    ['between state and the order books', [{ after: '/aggregator/tickers', swaps: 8, advanceMs: 6_000 }]],
    ['between the quote and the closing proofs', [{ after: '/connect/quote', swaps: 8, advanceMs: 6_000 }]],
    [
      'inside a cache window (stats and volume computed apart)',
      [
        { after: '/stats', swaps: 10, advanceMs: 31_000 },
        { after: '/aggregator/pairs', swaps: 4, advanceMs: 11_000 },
      ],
    ],
  ];
  for (const [name, inj] of points)
    it(name, async () => {
      s.clock.advanceMs(61_000); // a fresh cache window for every scenario
      for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
      const r = await auditWith(inj);
      expect(r.errors.map((f) => `${f.code}: ${f.message}`)).toEqual([]);
      expect(r.outcome).not.toBe('failed');
    }, 30_000);
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
          const r = await auditWith(inj, probe);
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
  /**
   * After every quote the clock moves past the pool snapshot and swaps run, so each quote names a
   * contract that no /pools/proof of the audit shows; `edit` may change each 200 quote body.
   */
  async function auditMovingQuotes(edit?: (quote: QuoteJson) => void) {
    s.clock.advanceMs(61_000);
    for (let k = 0; k < 20; k++) simulateRandomSwap(s.ex, s.ex.rng);
    s.setTamper((ctx) => {
      if (ctx.path !== '/connect/quote') return undefined;
      s.clock.advanceMs(6_000);
      for (let k = 0; k < 10; k++) simulateRandomSwap(s.ex, s.ex.rng);
      if (ctx.status !== 200 || edit === undefined) return undefined;
      const j = ctx.json as QuoteJson;
      edit(j);
      return { json: j };
    });
    try {
      const r = await runAudit({
        baseUrl: s.base,
        probeQuotes: true,
        now: () => s.clock.nowMs(),
        exitCodeOf,
      });
      return { ...r, quoteChecks: r.checks.filter((k) => k.name.startsWith('quote.')) };
    } finally {
      s.setTamper(undefined);
    }
  }

  it('a quote priced on a contract no proof showed is checked against its own proven blob', async () => {
    const r = await auditMovingQuotes();
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.findings.filter((f) => f.code === 'QUOTE_UNAVAILABLE')).toEqual([]);
    expect(r.quoteChecks.length).toBeGreaterThan(0);
    expect(r.quoteChecks.every((k) => k.status === 'pass')).toBe(true);
    expect(r.summary.exitCode).toBe(0);
  }, 60_000);

  it('a too generous quote on such a contract fails (QUOTE_TOO_GENEROUS, exit 1)', async () => {
    const r = await auditMovingQuotes((q) => {
      const [i, f = ''] = q.returned.amount.split('.');
      q.returned.amount = `${BigInt(i ?? '0') + 1n}.${f}`;
    });
    const f = r.findings.find((x) => x.code === 'QUOTE_TOO_GENEROUS');
    expect(f?.severity).toBe('error');
    expect(f?.label).toBe('proven');
    expect(r.summary.exitCode).toBe(1);
  }, 60_000);

  it('a blob that does not decode is no proof and an accusation: QUOTE_PROOF_INVALID, never a pass', async () => {
    const r = await auditMovingQuotes((q) => {
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
    const r = await auditMovingQuotes((q) => {
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

  it('genuine blobs pass their quote.proof check', async () => {
    const r = await auditMovingQuotes();
    const proofs = r.checks.filter((k) => k.name === 'quote.proof');
    expect(proofs.length).toBeGreaterThan(0);
    expect(proofs.every((k) => k.status === 'pass')).toBe(true);
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

interface QuoteJson {
  returned: { amount: string };
  pools: { pool_id: string; contract_id: string; created_event_blob?: string }[];
}
