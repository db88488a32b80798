/**
 * computeProbePlan (src/core/wire/probe-plan.ts) and the API timestamp helpers: exact probe amounts
 * from the published minimum and the pool's CC reserve, MOD probes, pools without a CC side.
 */
import { describe, expect, it } from 'vitest';
import {
  computeProbePlan,
  type ExchangeInfoResponse,
  formatApiTimestamp,
  type PoolStateInfo,
  type PoolsStateResponse,
  parseApiTimestampMicros,
  parseApiTimestampMs,
} from '../../src/core/wire/index.js';
import { PROBE_AFFILIATE_CODE } from '../../src/core/wire/probe-plan.js';

const CC = { instrument_id: 'Amulet', instrument_admin: 'DSO::1220aa' };
const cc = { id: 'Amulet', admin: 'DSO::1220aa', symbol: 'CC' };

function pool(
  id: string,
  a: PoolStateInfo['token_a_instrument'],
  b: PoolStateInfo['token_b_instrument'],
  ra: string,
  rb: string,
): PoolStateInfo {
  return {
    pool_id: id,
    contract_id: '00',
    symbol: `${a.symbol}-${b.symbol}`,
    token_a_instrument: a,
    token_b_instrument: b,
    fee_rate: '0.0030000000',
    reserve_a: ra,
    reserve_b: rb,
    price: null,
    tvl_cc: '0.0000000000',
  };
}

const info = (min: string): ExchangeInfoResponse => ({
  data: {
    updated_at: '2026-11-01T12:00:00+00:00',
    fees: { transfer: { amount: '0.5', ...CC }, allocation: { amount: '0.25', ...CC } },
    policy: {
      free_transfers_per_day: 3,
      min_recommended_cc_balance: '20',
      min_swap_amount_for_fee_waiver: '500',
      min_swap_amount_size_cc: '10',
      min_connect_swap_amount_size_cc: min,
      need_invite_code: false,
    },
  },
});

describe('computeProbePlan', () => {
  const state: PoolsStateResponse = {
    data: {
      updated_at: '2026-11-01T12:00:00+00:00',
      pools: [
        pool(
          'p1',
          cc,
          { id: 'USDCx', admin: 'usdc::1220bb', symbol: 'USDCX' },
          '1611266.5495824633',
          '245420.1234567890',
        ),
        pool(
          'p2',
          { id: 'MOD', admin: 'mod::1220cc', symbol: 'MOD' },
          cc,
          '50000.0000000000',
          '150.0000000000',
        ),
        pool(
          'p3',
          { id: 'X', admin: 'x::1', symbol: 'X' },
          { id: 'Y', admin: 'y::1', symbol: 'Y' },
          '1.0000000000',
          '1.0000000000',
        ),
      ],
    },
  };

  it('plans the four CC probes per pool with exact amounts, MOD once, skips pools without CC', () => {
    const plan = computeProbePlan(state, info('50'), CC);
    const p1 = plan.filter((p) => p.poolId === 'p1');
    expect(p1.map((p) => [p.kind, p.request.sellAmount, p.expect])).toEqual([
      ['minimum', '50', 'accept'],
      ['mid', '16112.6654958246', 'accept'], // 1 % of the CC reserve, rounded down to 10 places
      ['affiliate', '100', 'accept'],
      ['below-minimum', '25', 'reject'],
    ]);
    expect(p1[2]?.request.affiliateCode).toBe(PROBE_AFFILIATE_CODE);
    expect(PROBE_AFFILIATE_CODE.length).toBeGreaterThan(20);
    expect(
      p1.every((p) => p.request.sellInstrumentId === 'Amulet' && p.request.buyInstrumentId === 'USDCx'),
    ).toBe(true);
    // p2: CC reserve 150 → only 'minimum' fits below half the reserve? 50 < 75: minimum yes, mid = max(1.5, 100) ≥ 75 skipped
    const p2 = plan.filter((p) => p.poolId === 'p2');
    expect(p2.map((p) => [p.kind, p.request.sellAmount])).toEqual([
      ['minimum', '50'],
      ['affiliate', '50'],
      ['below-minimum', '25'],
      ['mod', '1000'],
    ]);
    expect(p2[3]).toMatchObject({
      expect: 'reject',
      request: { sellInstrumentId: 'MOD', buyInstrumentId: 'Amulet' },
    });
    expect(plan.some((p) => p.poolId === 'p3')).toBe(false);
  });

  it('a fractional minimum stays exact (no float)', () => {
    const plan = computeProbePlan(state, info('0.0000000003'), CC);
    expect(plan.find((p) => p.kind === 'below-minimum')?.request.sellAmount).toBe('0.0000000001');
  });
});

describe('API timestamps', () => {
  it('parses +00:00 timestamps to ms and µs, rejects other forms', () => {
    expect(parseApiTimestampMs('2026-11-01T12:00:00+00:00')).toBe(Date.UTC(2026, 10, 1, 12));
    expect(parseApiTimestampMicros('2026-11-01T11:59:28.902108+00:00')).toBe(
      BigInt(Date.UTC(2026, 10, 1, 11, 59, 28)) * 1000n + 902_108n,
    );
    expect(parseApiTimestampMicros('2026-11-01T11:59:28.9+00:00')).toBe(
      BigInt(Date.UTC(2026, 10, 1, 11, 59, 28)) * 1000n + 900_000n,
    );
    for (const bad of [
      '2026-11-01T12:00:00Z',
      '2026-11-01 12:00:00+00:00',
      '2026-13-01T12:00:00+00:00',
      '2025-02-29T00:00:00+00:00',
      '2026-11-01T24:00:00+00:00',
    ]) {
      expect(parseApiTimestampMs(bad), bad).toBeNull();
    }
    expect(parseApiTimestampMs('2024-02-29T00:00:00+00:00')).toBe(Date.UTC(2024, 1, 29));
    expect(formatApiTimestamp(Date.UTC(2026, 10, 1, 12))).toBe('2026-11-01T12:00:00.000+00:00');
  });
});
