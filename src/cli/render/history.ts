/** `history` output: CSV (RFC 4180 quoting, header row) or JSON (the issue "history"). */
import type { PoolHistoryRow } from '../../run/history.js';
import { stringifyJson } from './style.js';

const COLUMNS = [
  'time',
  'contract_id',
  'reserve_a',
  'reserve_b',
  'price',
  'tvl_cc',
  'total_lp_supply',
  'lp_share_value',
  'verification',
] as const;

const csvCell = (v: string | null): string =>
  v === null ? '' : /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;

export function formatHistoryCsv(rows: readonly PoolHistoryRow[]): string {
  const lines = [COLUMNS.join(',')];
  for (const r of rows)
    lines.push(
      [
        r.time,
        r.contractId,
        r.reserveA,
        r.reserveB,
        r.price,
        r.tvlCc,
        r.totalLpSupply,
        r.lpShareValue,
        r.verification,
      ]
        .map(csvCell)
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

export function formatHistoryJson(poolId: string, rows: readonly PoolHistoryRow[]): string {
  return `${stringifyJson({
    pool_id: poolId,
    rows: rows.map((r) => ({
      time: r.time,
      contract_id: r.contractId,
      reserve_a: r.reserveA,
      reserve_b: r.reserveB,
      price: r.price,
      tvl_cc: r.tvlCc,
      total_lp_supply: r.totalLpSupply,
      lp_share_value: r.lpShareValue,
      verification: r.verification,
    })),
  })}\n`;
}
