/**
 * One bad pool must not hide the others: /pools/proof, /pools/state and /pools/info are read pool by pool, so a
 * malformed entry (a reserve as a JSON number, a negative, `1e400`, a blob that is not base64) is
 * that pool's error finding (exit 1) and every other pool is still verified — never a response-wide
 * FETCH_FAILED (exit 2). The response-level shape (no `pools` array) still fails the fetch.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';

interface Doc {
  summary: { pools: number; proofsProven: number; exitCode: number };
  pools: { poolId: string; proof: string }[];
  findings: { code: string; pool: string | null; severity: string; evidence: Record<string, unknown> }[];
  checks: { name: string; pool: string | null; status: string }[];
}

let s: AuditServer;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'malformed-entry' });
}, 30_000);
afterAll(async () => {
  await s.close();
});

async function audit(tamper: Tamper): Promise<{ code: number; doc: Doc; stderr: string }> {
  s.setTamper(tamper);
  try {
    const r = await runCliForTest(['audit', '--base-url', s.base, '--json', '--probe-quotes']);
    return { code: r.code, doc: JSON.parse(r.stdout) as Doc, stderr: r.stderr };
  } finally {
    s.setTamper(undefined);
  }
}

type Entry = { pool_id: string; reserve_contract?: Record<string, unknown>; [k: string]: unknown };
type Body = { data: { pools: Entry[] } };

/** Rewrites the pool at `index` of every /pools/proof (or /pools/state) response. */
const onEntry =
  (path: '/pools/proof' | '/pools/state', index: number, edit: (e: Entry) => void): Tamper =>
  (ctx) => {
    if (ctx.path !== path) return undefined;
    const b = ctx.json as Body;
    const e = b.data.pools[index];
    if (e !== undefined) edit(e);
    return { json: b };
  };

/** Replaces a JSON string value of the pool at `index` by a raw literal (e.g. `1e400`). */
const rawValue =
  (path: '/pools/proof' | '/pools/state', index: number, key: string, literal: string): Tamper =>
  (ctx) => {
    if (ctx.path !== path) return undefined;
    const b = ctx.json as Body;
    const marker = '__RAW_LITERAL__';
    const e = b.data.pools[index];
    if (e === undefined) return undefined;
    if (path === '/pools/proof' && e.reserve_contract !== undefined) e.reserve_contract[key] = marker;
    else e[key] = marker;
    return { raw: JSON.stringify(b).replace(`"${marker}"`, literal) };
  };

const poolAt = (index: number): string => {
  const p = s.ex.pools()[index];
  if (p === undefined) throw new Error(`no pool ${index}`);
  return p.poolId;
};

function expectOthersProven(doc: Doc, bad: string): void {
  const others = doc.pools.filter((p) => p.poolId !== bad);
  expect(others.length).toBeGreaterThan(3);
  for (const p of others) expect(p.proof, `pool ${p.poolId}`).toBe('proven');
  // every other pool's contract ID was recomputed and passed
  const idChecks = doc.checks.filter((c) => c.name === 'proof.contract-id' && c.pool !== bad);
  expect(idChecks.length).toBe(others.length);
  for (const c of idChecks) expect(c.status).toBe('pass');
  expect(doc.findings.map((f) => f.code)).not.toContain('FETCH_FAILED');
}

describe("a malformed /pools/proof entry is that pool's finding; the other pools are verified", () => {
  const cases: [string, (i: number) => Tamper, string][] = [
    [
      'reserve_a as a JSON number',
      (i) =>
        onEntry('/pools/proof', i, (e) => {
          if (e.reserve_contract) e.reserve_contract.reserve_a = 123.5;
        }),
      'PROOF_ENTRY_MALFORMED',
    ],
    [
      'a negative reserve',
      (i) =>
        onEntry('/pools/proof', i, (e) => {
          if (e.reserve_contract) e.reserve_contract.reserve_b = `-${String(e.reserve_contract.reserve_b)}`;
        }),
      'PROOF_ENTRY_MALFORMED',
    ],
    [
      'reserve_a = 1e400 (a JSON number literal)',
      (i) => rawValue('/pools/proof', i, 'reserve_a', '1e400'),
      'PROOF_ENTRY_MALFORMED',
    ],
    [
      'a created_event_blob that is not base64',
      (i) =>
        onEntry('/pools/proof', i, (e) => {
          if (e.reserve_contract) e.reserve_contract.created_event_blob = 'not base64!';
        }),
      'PROOF_BLOB_MALFORMED',
    ],
  ];
  it.each(cases)(
    '%s → exit 1 with its code, the rest proven',
    async (_name, tamper, code) => {
      const bad = poolAt(2);
      const r = await audit(tamper(2));
      expect(r.code).toBe(1);
      const f = r.doc.findings.find((x) => x.code === code);
      expect(f, JSON.stringify(r.doc.findings.map((x) => x.code))).toBeDefined();
      expect(f?.pool).toBe(bad);
      expect(f?.severity).toBe('error');
      expect(String(f?.evidence.path)).toMatch(/^data\.pools\[2\]\.reserve_contract\./);
      // one finding per pool, although both proof fetches carried the bad entry
      expect(r.doc.findings.filter((x) => x.code === code)).toHaveLength(1);
      // the only accusation: not also "no proof at all", nothing against another pool
      expect(r.doc.findings.filter((x) => x.severity === 'error').map((x) => x.code)).toEqual([code]);
      expectOthersProven(r.doc, bad);
    },
    30_000,
  );

  it('an entry without a readable pool_id is reported by its index', async () => {
    const r = await audit(
      onEntry('/pools/proof', 1, (e) => {
        e.pool_id = 42 as unknown as string;
      }),
    );
    expect(r.code).toBe(1);
    const f = r.doc.findings.find((x) => x.code === 'PROOF_ENTRY_MALFORMED');
    expect(f?.pool).toBeNull();
    expect(f?.evidence.index).toBe(1);
  }, 30_000);
});

describe('with a mirror', () => {
  it('a malformed proof entry is not also a vanished pool', async () => {
    const mirror = join(mkdtempSync(join(tmpdir(), 'audit-malformed-')), 'm.db');
    const honest = await runCliForTest(['audit', '--base-url', s.base, '--mirror', mirror]);
    expect(honest.code).toBe(0);
    s.setTamper(
      onEntry('/pools/proof', 1, (e) => {
        if (e.reserve_contract) e.reserve_contract.total_lp_supply = 7;
      }),
    );
    try {
      const r = await runCliForTest(['audit', '--base-url', s.base, '--mirror', mirror, '--json']);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as Doc;
      expect(doc.findings.map((x) => x.code)).toEqual(['PROOF_ENTRY_MALFORMED']);
    } finally {
      s.setTamper(undefined);
    }
  }, 30_000);
});

describe("a malformed /pools/state entry is that pool's finding", () => {
  it.each([0, 3])(
    'pool %i: reserve_a as a JSON number → STATE_ENTRY_MALFORMED, exit 1, nothing else',
    async (index) => {
      const bad = poolAt(index);
      const r = await audit(
        onEntry('/pools/state', index, (e) => {
          e.reserve_a = 1000;
        }),
      );
      // its proven state stands in for the exchange-wide checks: no pair, ticker, order book, quote
      // or /stats finding against the other pools because one entry was unreadable
      expect(r.doc.findings.filter((x) => x.severity === 'error').map((x) => x.code)).toEqual([
        'STATE_ENTRY_MALFORMED',
      ]);
      expect(r.code).toBe(1);
      const f = r.doc.findings.find((x) => x.code === 'STATE_ENTRY_MALFORMED');
      expect(f?.pool).toBe(bad);
      expect(r.doc.findings.map((x) => x.code)).not.toContain('FETCH_FAILED');
      for (const p of r.doc.pools) expect(p.proof, `pool ${p.poolId}`).toBe('proven');
      // the other pools' state was compared with their proofs
      const reserves = r.doc.checks.filter((c) => c.name === 'state.reserves' && c.pool !== bad);
      expect(reserves.length).toBeGreaterThan(3);
      for (const c of reserves) expect(c.status).toBe('pass');
    },
    30_000,
  );
});

/** Rewrites the /pools/info entry of pool `poolId` (its body is `{ pools: [...] }`). */
const onInfoEntry =
  (poolId: string, edit: (e: Record<string, unknown>) => void): Tamper =>
  (ctx) => {
    if (ctx.path !== '/pools/info') return undefined;
    const b = ctx.json as { pools: Record<string, unknown>[] };
    for (const e of b.pools) if (e.pool_id === poolId) edit(e);
    return { json: b };
  };

describe('/pools/info decimals (docs/protocol/public-api.md "Decimal strings")', () => {
  it('a fee rate with 11 decimal places is the same fee rate: no finding, exit 0', async () => {
    const r = await audit(
      onInfoEntry(poolAt(1), (e) => {
        e.fee_rate = `${e.fee_rate as string}0`;
      }),
    );
    expect(r.doc.findings.filter((x) => x.severity === 'error')).toEqual([]);
    expect(r.code).toBe(0);
  }, 30_000);

  it("a malformed entry is that pool's INFO_ENTRY_MALFORMED, naming the rule; the others are checked", async () => {
    const bad = poolAt(2);
    const r = await audit(
      onInfoEntry(bad, (e) => {
        e.fee_rate = '3e-3';
      }),
    );
    expect(r.doc.findings.filter((x) => x.severity === 'error').map((x) => x.code)).toEqual([
      'INFO_ENTRY_MALFORMED',
    ]);
    const f = r.doc.findings.find((x) => x.code === 'INFO_ENTRY_MALFORMED');
    expect(f?.pool).toBe(bad);
    expect(String(f?.evidence.got)).toMatch(
      /fee_rate expected a decimal string, got "3e-3": it has an exponent/,
    );
    expect(r.code).toBe(1);
    const info = r.doc.checks.filter((c) => c.name === 'state.pools-info');
    expect(info.length).toBeGreaterThan(3);
    for (const c of info) expect(c.status, String(c.pool)).toBe('pass');
  }, 30_000);
});

describe('the response-level shape still fails the fetch (exit 2)', () => {
  it('/pools/proof without a pools array', async () => {
    const r = await audit((ctx) =>
      ctx.path === '/pools/proof'
        ? { json: { data: { updated_at: '2026-11-22T03:00:00+00:00', pools: {} } } }
        : undefined,
    );
    expect(r.code).toBe(2);
    expect(r.doc.findings.map((x) => x.code)).toContain('FETCH_FAILED');
  }, 30_000);

  it('/pools/state that is not an object', async () => {
    const r = await audit((ctx) => (ctx.path === '/pools/state' ? { json: [1, 2] } : undefined));
    expect(r.code).toBe(2);
    expect(r.doc.findings.map((x) => x.code)).toContain('FETCH_FAILED');
  }, 30_000);
});
