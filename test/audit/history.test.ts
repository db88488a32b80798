/** History checks over hand-built series (src/core/audit/history-checks.ts, lp-share.ts). */
import { describe, expect, it } from 'vitest';
import {
  AuditCollector,
  checkHistoryPools,
  checkHistorySeries,
  computeLpShareValue,
  type HistoryPoint,
} from '../../src/core/audit/index.js';
import { isLpShareDecrease } from '../../src/core/audit/lp-share.js';
import { Dec } from '../../src/core/money/decimal.js';

const T = 'aa:amm-pools:Amm.Pool:PoolReserve';
const pt = (
  id: string,
  at: bigint,
  a: string,
  b: string,
  l: string,
  extra: Partial<HistoryPoint> = {},
): HistoryPoint => ({
  observedAtMs: Number(at / 1000n),
  contractId: id,
  ledgerCreatedAtMicros: at,
  reserveA: a,
  reserveB: b,
  totalLpSupply: l,
  proven: true,
  template: T,
  blobKey: null,
  ...extra,
});

function codes(points: HistoryPoint[], reportFrom = points.length - 1, tol?: string): string[] {
  const c = new AuditCollector();
  checkHistorySeries(c, 'p', points, reportFrom, tol === undefined ? {} : { lpShareTolerance: tol });
  return c.findings.map((f) => f.code);
}

describe('LP-share value', () => {
  it('is √(a·b)/L', () => {
    expect(computeLpShareValue('4', '9', '6')?.toString()).toBe('1');
    expect(computeLpShareValue('2', '2', '1')?.toString()).toBe('2');
    expect(computeLpShareValue('1', '1', '0')).toBeNull();
    expect(computeLpShareValue('x', '1', '1')).toBeNull();
  });
  it('tolerates rounding (1e-9 relative) and flags more', () => {
    const v = new Dec(1);
    expect(isLpShareDecrease(v, new Dec('0.9999999995'))).toBe(false);
    expect(isLpShareDecrease(v, new Dec('0.999999998'))).toBe(true);
  });
});

describe('checkHistorySeries', () => {
  const a = pt('c1', 1_000_000n, '100', '100', '100');
  it('an honest series (same contract observed twice, then a fee-earning swap) passes', () => {
    expect(codes([a, a, pt('c2', 2_000_000n, '110', '91', '100')], 0)).toEqual([]);
  });
  it('ledger_created_at going back for a new contract → HISTORY_TIME_REGRESSION', () => {
    expect(codes([a, pt('c2', 500_000n, '110', '91', '100')])).toEqual(['HISTORY_TIME_REGRESSION']);
  });
  it('same contract, other reserves → HISTORY_RESERVES_CHANGED_WITHOUT_NEW_CONTRACT', () => {
    expect(codes([a, pt('c1', 1_000_000n, '101', '100', '100')])).toEqual([
      'HISTORY_RESERVES_CHANGED_WITHOUT_NEW_CONTRACT',
    ]);
  });
  it('same contract, other LP supply or creation time → HISTORY_CONTRACT_REUSED', () => {
    expect(codes([a, pt('c1', 1_000_000n, '100', '100', '99')])).toContain('HISTORY_CONTRACT_REUSED');
    expect(codes([a, pt('c1', 1_000_001n, '100', '100', '100')])).toContain('HISTORY_CONTRACT_REUSED');
  });
  it('LP-share value decreasing → HISTORY_LP_SHARE_VALUE_DECREASED; asserted (unproven) points are not compared', () => {
    expect(codes([a, pt('c2', 2_000_000n, '100', '100', '101')])).toEqual([
      'HISTORY_LP_SHARE_VALUE_DECREASED',
    ]);
    expect(codes([a, pt('c2', 2_000_000n, '100', '100', '101', { proven: false })])).toEqual([]);
    expect(codes([a, pt('c2', 2_000_000n, '100', '100', '101')], 1, '0.05')).toEqual([]);
  });
  it('a template change → HISTORY_TEMPLATE_CHANGED (warning)', () => {
    const c = new AuditCollector();
    checkHistorySeries(
      c,
      'p',
      [a, pt('c2', 2_000_000n, '110', '91', '100', { template: 'bb:amm-pools:Amm.Pool:PoolReserve' })],
      1,
    );
    expect(c.findings.map((f) => [f.code, f.severity])).toEqual([['HISTORY_TEMPLATE_CHANGED', 'warning']]);
  });
  it('an old contract served again after a newer one → HISTORY_STALE_PROOF', () => {
    const b = pt('c2', 2_000_000n, '110', '91', '100');
    expect(codes([a, b, a])).toEqual(['HISTORY_STALE_PROOF']);
  });
  it('reports only from reportFrom on', () => {
    expect(
      codes([a, pt('c2', 500_000n, '110', '91', '100'), pt('c3', 3_000_000n, '120', '84', '100')], 2),
    ).toEqual([]);
  });
});

describe('checkHistoryPools', () => {
  it('flags a contract recorded for another pool and a vanished pool', () => {
    const c = new AuditCollector();
    checkHistoryPools(
      c,
      new Map([['p2', 'c1']]),
      new Map([['c1', { contractId: 'c1', poolId: 'p1' }]]),
      new Map([
        ['p1', 'c1'],
        ['p2', 'c0'],
      ]),
    );
    expect(c.findings.map((f) => f.code).sort()).toEqual([
      'HISTORY_CONTRACT_REUSED',
      'HISTORY_POOL_VANISHED',
    ]);
  });
});

describe('exact LP-share comparison', () => {
  it('agrees with the decimal path on random inputs', async () => {
    const { isLpShareDecreaseExact, computeLpShareValue: v } = await import('../../src/core/audit/index.js');
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const amt = (): string =>
      `${Math.floor(rnd() * 1e6)}.${String(Math.floor(rnd() * 1e10)).padStart(10, '0')}`;
    for (let i = 0; i < 300; i++) {
      const b = { reserveA: amt(), reserveB: amt(), totalLpSupply: amt() };
      const n =
        rnd() < 0.5
          ? { reserveA: amt(), reserveB: amt(), totalLpSupply: amt() }
          : { ...b, totalLpSupply: (Number(b.totalLpSupply) * (1 + (rnd() - 0.5) * 4e-9)).toFixed(10) };
      const x = v(b.reserveA, b.reserveB, b.totalLpSupply);
      const y = v(n.reserveA, n.reserveB, n.totalLpSupply);
      if (x === null || y === null) continue;
      expect(isLpShareDecreaseExact(b, n), JSON.stringify([b, n])).toBe(isLpShareDecrease(x, y));
    }
    expect(
      isLpShareDecreaseExact(
        { reserveA: '1e5', reserveB: '1', totalLpSupply: '1' },
        { reserveA: '1', reserveB: '1', totalLpSupply: '1' },
      ),
    ).toBeNull();
  });
});

describe('fast paths of the amount comparisons (replay hot path)', () => {
  it('isSameAmount: the same text is equal only when it is a decimal, as through Decimal', async () => {
    const { isSameAmount, parseDecimal } = await import('../../src/core/audit/decimal-strings.js');
    const texts = ['1.5', '0', '-0.1', '007.10', '', ' 1', '1e5', 'abc', '1.', '.5', 'NaN', '9'.repeat(81)];
    for (const t of texts) {
      const x = parseDecimal(t);
      expect(isSameAmount(t, t), JSON.stringify(t)).toBe(x?.eq(x) === true);
    }
    expect(isSameAmount('1.50', '1.5')).toBe(true);
    expect(isSameAmount('1.5', '1.6')).toBe(false);
  });

  it('isLpShareDecreaseExact reads integers without a point and 18 decimals like the decimal path', async () => {
    const { isLpShareDecreaseExact } = await import('../../src/core/audit/index.js');
    const before = { reserveA: '100', reserveB: '100', totalLpSupply: '100' };
    expect(isLpShareDecreaseExact(before, { reserveA: '99', reserveB: '100', totalLpSupply: '100' })).toBe(
      true,
    );
    expect(isLpShareDecreaseExact(before, { reserveA: '100', reserveB: '100', totalLpSupply: '100' })).toBe(
      false,
    );
    expect(
      isLpShareDecreaseExact(before, {
        reserveA: '99.999999999999999999',
        reserveB: '100',
        totalLpSupply: '100',
      }),
    ).toBe(false);
    expect(
      isLpShareDecreaseExact(before, {
        reserveA: '1.0000000000000000001',
        reserveB: '1',
        totalLpSupply: '1',
      }),
    ).toBeNull();
    for (const [a, b, l] of [
      ['12.5', '3', '7.25'],
      ['0.000000000000000001', '5', '1'],
    ] as const) {
      const x = computeLpShareValue(a, b, l);
      const y = computeLpShareValue('12', '3', '7.25');
      if (x === null || y === null) throw new Error('unreachable');
      expect(
        isLpShareDecreaseExact(
          { reserveA: a, reserveB: b, totalLpSupply: l },
          { reserveA: '12', reserveB: '3', totalLpSupply: '7.25' },
        ),
      ).toBe(isLpShareDecrease(x, y));
    }
  });
});
