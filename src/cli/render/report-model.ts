/**
 * What the HTML report shows (issue 13 "the report"), built either from a fresh audit
 * (`audit --html`) or from the latest audit run recorded in a mirror (`report --mirror`): the
 * verdict's numbers, the findings, the checks, one row per pool, and each pool's history for the
 * charts. Counts are computed from the findings and checks themselves, so the page's numbers are
 * the JSON report's.
 */

import {
  ASSURANCE_LIMITS,
  type CheckCounts,
  type CheckOutcome,
  computeCheckCounts,
  computeFindingCounts,
  computeLabelCounts,
  type Finding,
  type FindingCounts,
  formatCoverageLines,
  type LabelCounts,
} from '../../core/audit/index.js';
import { formatApiTimestamp } from '../../core/wire/timestamp.js';
import { redactUrl } from '../../io/http/redact-url.js';
import type { AuditReport } from '../../run/audit.js';
import type { PoolHistoryRow } from '../../run/history.js';
import { buildFindingIndex, type FindingIndex } from './finding-index.js';
import { formatRequestCountsLine } from './request-counts.js';

interface ReportCounts {
  readonly pools: number;
  readonly proofsProven: number;
  readonly checks: CheckCounts;
  readonly findings: FindingCounts;
  readonly labels: LabelCounts;
}

interface ReportRun {
  readonly baseUrl: string;
  readonly startedAt: string;
  readonly outcome: string;
  readonly counts: ReportCounts;
  /** what the run covered and did not (its summary.coverage as lines); empty for older runs */
  readonly coverage: readonly string[];
}

export interface ReportPoolRow {
  readonly poolId: string;
  readonly symbol: string | null;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly tvlCc: string | null;
  readonly price: string | null;
  readonly lpShareValue: string | null;
  readonly contractId: string | null;
  /**
   * the assurance level reached (audit: ledger-confirmed / id-verified / asserted / unverifiable) or
   * the mirror's verification status
   */
  readonly proof: string;
  /** ISO time the pool's reserve contract last changed, when history is known */
  readonly lastChange: string | null;
  readonly findings: { readonly error: number; readonly warning: number; readonly info: number };
}

export interface ReportModel {
  readonly title: string;
  readonly generatedAt: string;
  readonly run: ReportRun | null;
  readonly findings: readonly Finding[];
  readonly checks: readonly CheckOutcome[];
  readonly pools: readonly ReportPoolRow[];
  readonly series: ReadonlyMap<string, readonly PoolHistoryRow[]>;
}

/** Counts of findings and checks, the way the JSON summary counts them. */
function computeReportCounts(
  findings: readonly Finding[],
  checks: readonly CheckOutcome[],
  pools: number,
  proofsProven: number,
): ReportCounts {
  return {
    pools,
    proofsProven,
    checks: computeCheckCounts(checks),
    findings: computeFindingCounts(findings),
    labels: computeLabelCounts(findings),
  };
}

/** The time of the last observation whose reserve contract differs from the one before it. */
export function computeLastChange(rows: readonly PoolHistoryRow[] | undefined): string | null {
  if (rows === undefined || rows.length === 0) return null;
  for (let i = rows.length - 1; i > 0; i--)
    if (rows[i]!.contractId !== rows[i - 1]!.contractId) return rows[i]!.time;
  return rows[0]!.time;
}

/** A pool's row from the values of the audit's pool or of the mirror's last observation (none: nulls). */
function buildPoolRow(
  poolId: string,
  v: Omit<ReportPoolRow, 'poolId' | 'proof' | 'lastChange' | 'findings'> | undefined,
  proof: string,
  rows: readonly PoolHistoryRow[] | undefined,
  byPool: FindingIndex,
): ReportPoolRow {
  return {
    poolId,
    symbol: v?.symbol ?? null,
    reserveA: v?.reserveA ?? null,
    reserveB: v?.reserveB ?? null,
    tvlCc: v?.tvlCc ?? null,
    price: v?.price ?? null,
    lpShareValue: v?.lpShareValue ?? null,
    contractId: v?.contractId ?? null,
    proof,
    lastChange: computeLastChange(rows),
    findings: computeFindingCounts(byPool.byPool(poolId)),
  };
}

/** The model of a fresh audit; `series` is the mirror's history (the current snapshot included), or empty. */
export function buildReportModelFromAudit(
  r: AuditReport,
  series: ReadonlyMap<string, readonly PoolHistoryRow[]>,
  generatedAt: string,
): ReportModel {
  const s = r.summary;
  const byPool = buildFindingIndex(r.findings);
  const chartSeries = new Map<string, readonly PoolHistoryRow[]>();
  for (const p of r.pools) {
    const rows = series.get(p.poolId);
    chartSeries.set(
      p.poolId,
      rows !== undefined && rows.length > 0
        ? rows
        : [
            {
              time: s.fetchedAt,
              contractId: p.contractId,
              reserveA: p.reserveA,
              reserveB: p.reserveB,
              price: p.price,
              tvlCc: p.tvlCc,
              totalLpSupply: p.totalLpSupply,
              lpShareValue: p.lpShareValue,
              verification: p.proof,
              symbol: p.symbol,
            },
          ],
    );
  }
  return {
    title: `reserve-audit report — ${s.baseUrl}`,
    generatedAt,
    run: {
      baseUrl: s.baseUrl,
      startedAt: s.fetchedAt,
      outcome: s.outcome,
      counts: computeReportCounts(r.findings, r.checks, s.pools, s.proofsProven),
      coverage: [
        `assurance: ${s.assurance.level} — ${ASSURANCE_LIMITS[s.assurance.level]}`,
        ...formatCoverageLines(s.coverage),
        ...(s.requests === undefined ? [] : [formatRequestCountsLine(s.requests)]),
      ],
    },
    findings: r.findings,
    checks: r.checks,
    pools: r.pools.map((p) => buildPoolRow(p.poolId, p, p.assurance, series.get(p.poolId), byPool)),
    series: chartSeries,
  };
}

export interface RecordedRun {
  readonly baseUrl: string;
  readonly startedAtMs: number;
  readonly outcome: string;
  readonly checks: readonly CheckOutcome[];
  readonly findings: readonly Finding[];
  readonly summary: Readonly<Record<string, unknown>>;
}

/** The coverage lines a recorded run's summary carries (none for runs recorded before coverage existed). */
function readCoverageLines(summary: Readonly<Record<string, unknown>>): string[] {
  const c = summary.coverage;
  if (typeof c !== 'object' || c === null) return [];
  const out: string[] = [];
  for (const key of ['quotes', 'history', 'followed', 'types']) {
    const item = (c as Record<string, unknown>)[key];
    const text =
      typeof item === 'object' && item !== null ? (item as Record<string, unknown>).text : undefined;
    if (typeof text === 'string') out.push(text);
  }
  return out;
}

/** The model of a mirror: its latest recorded audit run (or none) and every pool's history. */
export function buildReportModelFromMirror(
  run: RecordedRun | null,
  series: ReadonlyMap<string, readonly PoolHistoryRow[]>,
  generatedAt: string,
): ReportModel {
  const findings = run?.findings ?? [];
  const byPool = buildFindingIndex(findings);
  const pools = [...series].map(([poolId, rows]) => {
    const last = rows[rows.length - 1];
    return buildPoolRow(poolId, last, last?.verification ?? 'no proof', rows, byPool);
  });
  const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
  // runs recorded before base URLs were redacted on entry may still carry credentials
  const baseUrl = run === null ? null : redactUrl(run.baseUrl);
  return {
    title: baseUrl === null ? 'reserve-audit report' : `reserve-audit report — ${baseUrl}`,
    generatedAt,
    run:
      run === null
        ? null
        : {
            baseUrl: baseUrl ?? '',
            startedAt: formatApiTimestamp(run.startedAtMs),
            outcome: run.outcome,
            counts: computeReportCounts(
              run.findings,
              run.checks,
              num(run.summary.pools, pools.length),
              num(run.summary.proofsProven, pools.filter((p) => p.proof === 'verified').length),
            ),
            coverage: readCoverageLines(run.summary),
          },
    findings,
    checks: run?.checks ?? [],
    pools,
    series,
  };
}
