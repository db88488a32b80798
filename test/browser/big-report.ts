/** A synthetic report model of many pools with a long history (the 1,000-pool size test and the page benchmark). */
import type { ReportModel } from '../../src/cli/render/report-model.js';
import type { PoolHistoryRow } from '../../src/run/history.js';

export function computeBigReportModel(poolCount: number, observations: number): ReportModel {
  const pools: ReportModel['pools'][number][] = [];
  const series = new Map<string, PoolHistoryRow[]>();
  for (let i = 0; i < poolCount; i++) {
    const id = String(1_000_000_000_000 + i);
    pools.push({
      poolId: id,
      symbol: `T${i}/CC`,
      reserveA: '123456.7890123456',
      reserveB: '98765.4321098765',
      tvlCc: '246913.5780246912',
      price: '0.8000000000',
      lpShareValue: '1.0000000000',
      contractId: `00${'ab'.repeat(33)}ca1212${'cd'.repeat(32)}`,
      proof: 'proven',
      lastChange: '2026-11-22T03:00:00.000Z',
      findings: { error: 0, warning: 0, info: 1 },
    });
    series.set(
      id,
      Array.from({ length: observations }, (_, k) => ({
        time: new Date(Date.UTC(2026, 10, 22, 3, k)).toISOString(),
        contractId: `c${i}-${k >> 2}`,
        reserveA: (123456.789 + k).toFixed(10),
        reserveB: (98765.432 - k).toFixed(10),
        price: '0.8000000000',
        tvlCc: '246913.5780246912',
        totalLpSupply: '1000.0000000000',
        lpShareValue: '110.4536101718726',
        verification: 'verified',
        symbol: `T${i}/CC`,
      })),
    );
  }
  return {
    title: 'big',
    generatedAt: '2026-11-22T04:00:00.000Z',
    run: null,
    findings: [],
    checks: [],
    pools,
    series,
  };
}
