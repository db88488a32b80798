/** Unit tests of the pure audit checks over hand-built snapshots (src/core/audit). */
import { describe, expect, it } from 'vitest';
import { type AuditInput, type AuditSnapshot, runAuditChecks } from '../../src/core/audit/index.js';
import type { ProofVerification } from '../../src/core/audit/proof-checks.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { createArgOf, honestSnapshot, POOLS, proofsOf, verifiedOf } from './fixtures.js';

const P1 = POOLS[0]!;
const P2 = POOLS[1]!;

function run(
  over: { snapshot?: (s: AuditSnapshot) => AuditSnapshot; verifications?: ProofVerification[] } = {},
) {
  const base = honestSnapshot();
  const snapshot = over.snapshot?.(base) ?? base;
  const input: AuditInput = {
    snapshot,
    reserveProofs: proofsOf(snapshot, over.verifications ?? POOLS.map(verifiedOf)),
    history: null,
    profile: DEFAULT_RESERVE_PROFILE,
  };
  const r = runAuditChecks(input);
  return { ...r, codes: r.findings.map((f) => f.code) };
}

const mapOk = <T>(f: { ok: true; value: T } | { ok: false; reason: string }, fn: (v: T) => T) =>
  f.ok ? { ok: true as const, value: fn(f.value) } : f;

describe('runAuditChecks', () => {
  it('passes an honest snapshot, every performed check a pass', () => {
    const r = run();
    expect(r.findings).toEqual([]);
    expect(r.outcome).toBe('passed');
    expect(r.checks.filter((c) => c.status === 'fail' || c.status === 'could-not-check')).toEqual([]);
    expect(r.pools.map((p) => p.proof)).toEqual(['proven', 'proven']);
    expect(r.pools[1]?.lpShareValue).toBe('1');
  });

  it('JSON reserve ≠ blob → PROOF_FIELD_MISMATCH with expected/got', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        proofs: mapOk(s.proofs, (ps) =>
          ps.map((p, i) => (i === 0 ? { ...p, reserveA: '1000.0000000001' } : p)),
        ),
      }),
    });
    const f = r.findings.find((x) => x.code === 'PROOF_FIELD_MISMATCH');
    expect(f?.evidence).toMatchObject({ field: 'reserve_a', expected: P1.reserveA, got: '1000.0000000001' });
    expect(f?.label).toBe('proven');
    expect(r.outcome).toBe('failed');
  });

  it('a recomputation mismatch → PROOF_CONTRACT_ID_MISMATCH, and no proven values downstream', () => {
    const v = POOLS.map(verifiedOf);
    v[0] = { ...v[0]!, idStatus: 'mismatch', reasons: ['SUFFIX_MISMATCH: …'] };
    const r = run({ verifications: v });
    expect(r.codes).toContain('PROOF_CONTRACT_ID_MISMATCH');
    expect(r.checks.find((c) => c.name === 'state.reserves' && c.pool === 'p1')?.status).toBe('skipped');
    expect(r.pools[0]?.proof).toBe('failed');
    expect(r.outcome).toBe('failed');
  });

  it('published ID ≠ embedded ID → PROOF_CONTRACT_ID_MISMATCH (published-vs-embedded)', () => {
    const v = POOLS.map(verifiedOf);
    v[0] = { ...v[0]!, decoded: { ...v[0]!.decoded!, embeddedContractId: 'ff'.repeat(69) } };
    const r = run({ verifications: v });
    expect(r.findings.find((f) => f.code === 'PROOF_CONTRACT_ID_MISMATCH')?.evidence.kind).toBe(
      'published-vs-embedded',
    );
  });

  it('an unverifiable proof is could-not-check, never a pass', () => {
    const v = POOLS.map(verifiedOf);
    v[1] = { ...v[1]!, idStatus: 'could-not-check', reasons: ['TYPES_REQUIRED: no types'] };
    const r = run({ verifications: v });
    expect(r.codes).toEqual(['PROOF_UNVERIFIABLE']);
    expect(r.outcome).toBe('could-not-check');
    expect(r.pools[1]?.proof).toBe('unverifiable');
  });

  it('an undecodable blob → PROOF_BLOB_MALFORMED', () => {
    const v = POOLS.map(verifiedOf);
    v[0] = {
      idStatus: 'could-not-check',
      reasons: [],
      recomputedContractId: null,
      decoded: null,
      decodeError: 'BLOB_TRUNCATED: …',
    };
    expect(run({ verifications: v }).codes).toContain('PROOF_BLOB_MALFORMED');
  });

  it('a template outside the profile → PROOF_TEMPLATE_UNEXPECTED', () => {
    const v = POOLS.map(verifiedOf);
    const t = { ...v[0]!.decoded!.template, entityName: 'Other' };
    v[0] = { ...v[0]!, decoded: { ...v[0]!.decoded!, template: t } };
    const r = run({ verifications: v });
    expect(r.codes).toContain('PROOF_TEMPLATE_UNEXPECTED');
    expect(r.codes).toContain('PROOF_FIELD_MISMATCH'); // JSON template ≠ blob template
  });

  it('fields unreadable through the profile → PROOF_UNVERIFIABLE', () => {
    const v = POOLS.map(verifiedOf);
    v[0] = { ...v[0]!, decoded: { ...v[0]!.decoded!, createArg: { kind: 'record', fields: [] } } };
    expect(run({ verifications: v }).codes).toContain('PROOF_UNVERIFIABLE');
  });

  it('state reserves ≠ proven reserves of the same contract → STATE_PROOF_MISMATCH', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) => ps.map((p, i) => (i === 1 ? { ...p, reserveB: '801.0000000000' } : p))),
      }),
    });
    expect(r.codes).toContain('STATE_PROOF_MISMATCH');
    expect(r.outcome).toBe('failed');
  });

  it('state naming another contract → STATE_NOT_COMPARABLE (could not check)', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) =>
          ps.map((p, i) => (i === 1 ? { ...p, contractId: 'ee'.repeat(69) } : p)),
        ),
      }),
    });
    expect(r.codes).toEqual(['STATE_NOT_COMPARABLE']);
    expect(r.outcome).toBe('could-not-check');
  });

  it('price: one unit in the 10th place is rounding, two units are PRICE_MISMATCH', () => {
    const ok = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) => ps.map((p, i) => (i === 0 ? { ...p, price: '0.1500000001' } : p))),
      }),
    });
    expect(ok.codes).toEqual([]);
    const bad = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) => ps.map((p, i) => (i === 0 ? { ...p, price: '0.1500000002' } : p))),
      }),
    });
    expect(bad.codes).toEqual(['PRICE_MISMATCH']);
  });

  it('tvl_cc ≠ 2 × CC reserve → TVL_MISMATCH (and the /stats total follows)', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) => ps.map((p, i) => (i === 1 ? { ...p, tvlCc: '1600.0000000001' } : p))),
      }),
    });
    expect(r.codes).toContain('TVL_MISMATCH');
  });

  it('a pool without proof → POOL_MISSING_PROOF; /pools/info fee off → POOLS_INFO_MISMATCH', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        proofs: mapOk(s.proofs, (ps) => ps.slice(0, 1)),
        poolsInfo: mapOk(s.poolsInfo, (ps) => ps.map((p) => ({ ...p, feeRate: '0.0100000000' }))),
      }),
      verifications: [verifiedOf(P1)],
    });
    expect(r.codes).toContain('POOL_MISSING_PROOF');
    expect(r.codes).toContain('POOLS_INFO_MISMATCH');
  });

  it('/pools/state and /pools/info naming another token b → one finding each, against the proven token', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        state: mapOk(s.state, (ps) =>
          ps.map((p, i) => (i === 0 ? { ...p, tokenB: { ...p.tokenB, id: 'Other' } } : p)),
        ),
        poolsInfo: mapOk(s.poolsInfo, (ps) =>
          ps.map((p, i) => (i === 0 ? { ...p, tokenB: { ...p.tokenB, id: 'Other' } } : p)),
        ),
      }),
    });
    const state = r.findings.filter((f) => f.code === 'STATE_FIELD_MISMATCH');
    const info = r.findings.filter((f) => f.code === 'POOLS_INFO_MISMATCH');
    expect(state.map((f) => [f.pool, f.message, f.evidence.field])).toEqual([
      [P1.poolId, 'token b differs from the proof', 'token_b_instrument'],
    ]);
    expect(info.map((f) => [f.pool, f.message, f.evidence.field])).toEqual([
      [P1.poolId, 'token b differs from the proof', 'token_b'],
    ]);
    expect(state[0]?.evidence).toMatchObject({ got: { id: 'Other' } });
    expect(state[0]?.evidence.expected).toEqual(info[0]?.evidence.expected);
    expect(state[0]?.evidence.expected).not.toMatchObject({ id: 'Other' });
  });

  it('market data: ticker, pairs, markets', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        tickers: mapOk(s.tickers, (ts) => ts.map((t) => (t.tickerId === 'FOO_CC' ? { ...t, bid: 4 } : t))),
        pairs: mapOk(s.pairs, (ps) => ps.slice(1)),
        markets: mapOk(s.markets, (ms) => ms.filter((m) => m.symbol !== 'FOO-CC')),
      }),
    });
    expect(r.codes).toEqual(expect.arrayContaining(['TICKER_MISMATCH', 'PAIR_MISMATCH', 'MARKET_MISMATCH']));
  });

  it('a ticker with no price (null) is compared as "no price": a finding for a pool with reserves, no crash', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        tickers: mapOk(s.tickers, (ts) =>
          ts.map((t) => (t.tickerId === 'FOO_CC' ? { ...t, lastPrice: null, bid: null, ask: null } : t)),
        ),
      }),
    });
    const f = r.findings.filter((x) => x.code === 'TICKER_MISMATCH');
    expect(f.map((x) => x.evidence)).toEqual([
      expect.objectContaining({ field: 'last_price', expected: 4, got: null }),
      expect.objectContaining({ field: 'bid', got: null }),
      expect.objectContaining({ field: 'ask', got: null }),
    ]);
    expect(r.checks.find((c) => c.name === 'market.ticker' && c.pool === 'p1')?.status).toBe('pass');
  });

  it('volume and stats: fees, windows, 24 h volume, TVL total', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        volume: mapOk(s.volume, (v) => ({
          ...v,
          whole: { ...v.whole, volumeCc: '5.0000000000' },
          default: { ...v.default, feesCc: '1.0000000000' },
        })),
        stats: mapOk(s.stats, (st) => ({ ...st, ccVolume24h: '7.0000000000', tvlCc: '3601.0000000000' })),
      }),
    });
    expect(r.codes).toEqual(
      expect.arrayContaining([
        'VOLUME_FEES_DONT_ADD_UP',
        'VOLUME_WINDOWS_DONT_ADD_UP',
        'STATS_VOLUME_MISMATCH',
        'STATS_TVL_MISMATCH',
      ]),
    );
  });

  it('a pool token missing from /tokens/info → TOKEN_MISSING', () => {
    const r = run({
      snapshot: (s) => ({ ...s, tokens: mapOk(s.tokens, (ts) => ts.filter((t) => t.id !== 'FOO')) }),
    });
    expect(r.codes).toEqual(['TOKEN_MISSING']);
  });

  it('an endpoint that failed makes its checks could-not-check (FETCH_FAILED), never pass', () => {
    const r = run({ snapshot: (s) => ({ ...s, tickers: { ok: false, reason: 'HTTP_STATUS: 500' } }) });
    expect(r.codes).toEqual(['FETCH_FAILED']);
    expect(r.outcome).toBe('could-not-check');
    const noState = run({ snapshot: (s) => ({ ...s, state: { ok: false, reason: 'timeout' } }) });
    expect(noState.outcome).toBe('could-not-check');
    expect(noState.findings.every((f) => f.code === 'FETCH_FAILED')).toBe(true);
  });

  it('an exchange with no pools and no proofs is could-not-check (NOTHING_TO_AUDIT), not a pass', () => {
    const r = run({
      snapshot: (s) => ({
        ...s,
        proofs: { ok: true, value: [] },
        proofsAfter: { ok: true, value: [] },
        state: { ok: true, value: [] },
      }),
      verifications: [],
    });
    expect(r.codes).toContain('NOTHING_TO_AUDIT');
    expect(r.outcome).not.toBe('passed'); // here also failed: markets and pairs without pools
  });

  it('labels in the type environment locate fields even without positions', () => {
    const v = POOLS.map(verifiedOf);
    const labels = [
      'operator',
      'poolId',
      'tokenA',
      'tokenB',
      'reserveA',
      'reserveB',
      'totalLpSupply',
      'feeRate',
      'sequence',
      'previous',
    ];
    v[0] = { ...v[0]!, decoded: { ...v[0]!.decoded!, fieldLabels: labels, createArg: createArgOf(P1) } };
    expect(run({ verifications: v }).codes).toEqual([]);
    const swapped = [...labels];
    [swapped[4], swapped[5]] = ['reserveB', 'reserveA'];
    v[0] = { ...v[0]!, decoded: { ...v[0]!.decoded!, fieldLabels: swapped } };
    expect(run({ verifications: v }).codes).toContain('PROOF_UNVERIFIABLE');
  });
  void P2;
});
