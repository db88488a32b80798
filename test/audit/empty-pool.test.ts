/**
 * An honest exchange with an empty pool can be audited (the wire-contract defect of the
 * restructuring issue): the bundled reference server, one pool emptied by withdrawing all its
 * liquidity, serves `price`/`last_price`/`bid`/`ask` = null and an order book without levels for
 * it; the audit parses every response, treats null as "no price", and passes (exit 0).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

/** The only pool of the CTX-CC market in the seed market. */
const CTX_POOL = '8926104437518832975';

const servers: AuditServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe('audit of an exchange with an empty pool', () => {
  it('passes: the empty pool is proven, its ticker and order book agree with "no reserves"', async () => {
    const s = await startAuditServer({ seed: 'audit-empty-pool' });
    servers.push(s);
    const pool = s.ex.pools().find((p) => p.poolId === CTX_POOL);
    if (pool === undefined) throw new Error('no CTX pool in the seed market');
    s.ex.removeLiquidity(CTX_POOL, pool.totalLpSupply, s.ex.operatorParty());
    s.clock.advanceMs(60_000);
    const r = await runCliForTest(['audit', '--base-url', s.base, '--json', '--probe-quotes']);
    expect(r.stderr).not.toContain('could not check:');
    const doc = JSON.parse(r.stdout) as {
      summary: { outcome: string; pools: number; proofsProven: number };
      findings: unknown[];
      checks: { name: string; pool: string | null; status: string }[];
    };
    expect(doc.findings).toEqual([]);
    expect(doc.summary.outcome).toBe('passed');
    expect(r.code).toBe(0);
    expect(doc.summary.proofsProven).toBe(doc.summary.pools);
    const ofEmpty = doc.checks.filter((c) => c.pool === CTX_POOL);
    for (const name of [
      'proof.contract-id',
      'proof.fields',
      'state.reserves',
      'state.price',
      'market.ticker',
    ])
      expect(
        ofEmpty.some((c) => c.name === name && c.status === 'pass'),
        name,
      ).toBe(true);
  });
});
