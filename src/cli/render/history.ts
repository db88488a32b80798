/** `history` output: CSV (RFC 4180 quoting, header row) or JSON (the issue "history"), one column list for both. */
import type { PoolHistoryRow } from '../../run/history.js';
import { stringifyJson } from './style.js';

/** The output's columns (CSV header and JSON keys, in this order) and the row field each shows. */
const COLUMNS = [
  ['time', 'time'],
  ['contract_id', 'contractId'],
  ['reserve_a', 'reserveA'],
  ['reserve_b', 'reserveB'],
  ['price', 'price'],
  ['tvl_cc', 'tvlCc'],
  ['total_lp_supply', 'totalLpSupply'],
  ['lp_share_value', 'lpShareValue'],
  ['verification', 'verification'],
] as const satisfies readonly (readonly [string, keyof PoolHistoryRow])[];

const csvCell = (v: string | null): string =>
  v === null ? '' : /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;

export function formatHistoryCsv(rows: readonly PoolHistoryRow[]): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const r of rows) lines.push(COLUMNS.map(([, field]) => csvCell(r[field])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function formatHistoryJson(poolId: string, rows: readonly PoolHistoryRow[]): string {
  return `${stringifyJson({
    pool_id: poolId,
    rows: rows.map((r) => Object.fromEntries(COLUMNS.map(([name, field]) => [name, r[field]]))),
  })}\n`;
}
