/**
 * Human output of `audit`: one summary line and, under it, what the run covered and what it did
 * not (quotes, history, types), then per pool a small table of its checks and findings, then the
 * list of findings not tied to a pool (the issue "human output"), then the findings of entries
 * that are not pools of the report (a malformed /pools/proof or /pools/state entry): every finding
 * is printed, whatever it is about. Findings and checks are grouped once (./finding-index.ts), and
 * every string of the report is escaped for the terminal first (./display.ts).
 */
import {
  ASSURANCE_LEVELS,
  ASSURANCE_LIMITS,
  type CheckOutcome,
  type Finding,
  formatCoverageLines,
} from '../../core/audit/index.js';
import type { AuditReport } from '../../run/audit.js';
import { formatDisplayValue } from './display.js';
import { buildChecksByPool, buildFindingIndex } from './finding-index.js';
import { formatRequestCountsLine } from './request-counts.js';
import { formatTable, type Style } from './style.js';

const OUTCOME_TEXT = { passed: 'PASSED', failed: 'FAILED', 'could-not-check': 'COULD NOT CHECK' } as const;

function formatAuditSummaryLine(r: AuditReport, st: Style): string {
  const s = r.summary;
  const word =
    s.outcome === 'passed'
      ? st.green(OUTCOME_TEXT.passed)
      : s.outcome === 'failed'
        ? st.red(OUTCOME_TEXT.failed)
        : st.yellow(OUTCOME_TEXT[s.outcome]);
  return `${word}  ${s.baseUrl}  pools ${s.pools} (${formatAssuranceCounts(r)})  checks ${s.checks.pass} passed, ${s.checks.fail} failed, ${s.checks.couldNotCheck} could not check, ${s.checks.skipped} skipped  findings ${s.findings.error} errors, ${s.findings.warning} warnings  (${s.durationMs} ms)`;
}

/** `ledger-confirmed 7, id-verified 1`: the pools per level reached, strongest first, zeros left out. */
function formatAssuranceCounts(r: AuditReport): string {
  const c = r.summary.assurance.pools;
  const parts = ASSURANCE_LEVELS.filter((l) => c[l] > 0).map((l) => `${l} ${c[l]}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** The run's assurance level and what it does not prove (docs/findings.md "Assurance levels"). */
function formatAssuranceLine(r: AuditReport): string {
  const a = r.summary.assurance;
  const via =
    a.ledger === null ? 'no ledger API read' : `ledger read as ${a.ledger.party} at ${a.ledger.participant}`;
  return `assurance: ${a.level} (${via}) — ${ASSURANCE_LIMITS[a.level]}`;
}

const statusText = (c: CheckOutcome, st: Style): string =>
  c.status === 'pass'
    ? st.green('pass')
    : c.status === 'fail'
      ? st.red('FAIL')
      : c.status === 'could-not-check'
        ? st.yellow('could not check')
        : st.dim('skipped');

function findingLine(f: Finding, st: Style): string {
  const sev =
    f.severity === 'error' ? st.red('error') : f.severity === 'warning' ? st.yellow('warning') : 'info';
  return `  ${sev} ${f.code} [${f.label}] ${f.message}`;
}

/** Which spellings of the API were found (api-decisions §10), e.g. `api  exchange cantex, aggregator data under /coingecko, token ids coingecko_id`. */
function formatAuditApiLine(r: AuditReport): string | null {
  const a = r.summary.api;
  if (a === undefined) return null;
  const exchange = a.exchangeNames.length === 0 ? 'no own markets' : `exchange ${a.exchangeNames.join(', ')}`;
  const agg = a.aggregatorPath === null ? 'no aggregator data' : `aggregator data under ${a.aggregatorPath}`;
  const ids = a.tokenIdField === null ? 'no token ids' : `token ids ${a.tokenIdField}`;
  return `api  ${exchange}, ${agg}, ${ids}`;
}

/** The coverage of the run, one indented line each, shown right under the verdict. */
function formatCoverageText(r: AuditReport): string[] {
  const wire = r.summary.requests === undefined ? [] : [formatRequestCountsLine(r.summary.requests)];
  return [formatAssuranceLine(r), ...formatCoverageLines(r.summary.coverage), ...wire].map((l) => `  ${l}`);
}

/** The whole human report. */
export function formatAuditText(report: AuditReport, st: Style, verbose = false): string {
  const r = formatDisplayValue(report);
  const apiLine = formatAuditApiLine(r);
  const out: string[] = [
    formatAuditSummaryLine(r, st),
    ...formatCoverageText(r),
    ...(apiLine === null ? [] : [apiLine]),
    '',
  ];
  const findings = buildFindingIndex(r.findings);
  const checksByPool = buildChecksByPool(r.checks);
  const checkRows = (list: readonly CheckOutcome[]): string[][] =>
    list.map((c) => [c.name, statusText(c, st), c.codes.join(' ') || (c.note ?? '')]);
  const listed = new Set<string>();
  for (const p of r.pools) {
    listed.add(p.poolId);
    out.push(
      st.bold(
        `pool ${p.poolId}  ${p.symbol ?? '?'}  ${p.assurance}  contract ${p.contractId === null ? '-' : `${p.contractId.slice(0, 20)}…`}`,
      ),
    );
    out.push(
      formatTable(
        ['reserve_a', 'reserve_b', 'total_lp_supply', 'lp_share_value', 'price', 'tvl_cc'],
        [
          [
            p.reserveA ?? '-',
            p.reserveB ?? '-',
            p.totalLpSupply ?? '-',
            p.lpShareValue ?? '-',
            p.price ?? '-',
            p.tvlCc ?? '-',
          ],
        ],
      ),
    );
    const all = checksByPool.get(p.poolId) ?? [];
    const checks = all.filter((c) => verbose || c.status !== 'pass');
    const passed = all.length - all.filter((c) => c.status !== 'pass').length;
    if (checks.length > 0) out.push(formatTable(['check', 'status', 'codes'], checkRows(checks)));
    if (!verbose) out.push(st.dim(`${passed} checks passed`));
    for (const f of findings.byPool(p.poolId)) out.push(findingLine(f, st));
    out.push('');
  }
  const global = (checksByPool.get(null) ?? []).filter((c) => verbose || c.status !== 'pass');
  if (global.length > 0) {
    out.push(st.bold('exchange-wide checks'));
    out.push(formatTable(['check', 'status', 'codes'], checkRows(global)));
  }
  for (const f of findings.byPool(null)) out.push(findingLine(f, st));
  // entries that are not pools of the report (malformed /pools/proof or /pools/state entries)
  const others = findings.pools().filter((p): p is string => p !== null && !listed.has(p));
  if (others.length > 0) {
    out.push('', st.bold(`findings about ${others.length} entries that are not pools of this report`));
    for (const p of others) for (const f of findings.byPool(p)) out.push(findingLine(f, st));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * The reasons an audit could not check, for stderr: at most five `could not check` lines and a
 * count of the rest; '' unless the outcome is could-not-check.
 */
export function formatCouldNotCheckReasons(report: AuditReport): string {
  if (report.summary.outcome !== 'could-not-check') return '';
  const reasons = formatDisplayValue(report.findings.filter((f) => f.label === 'could-not-check'));
  const lines = reasons
    .slice(0, 5)
    .map(
      (f) =>
        `reserve-audit: could not check: ${f.code}${f.pool === null ? '' : ` (${f.pool})`}: ${f.message}\n`,
    );
  if (reasons.length > 5) lines.push(`reserve-audit: … and ${reasons.length - 5} more\n`);
  const hint = formatBaseUrlHint(report);
  if (hint !== null) lines.push(`reserve-audit: hint: ${hint}\n`);
  return lines.join('');
}

/** The path under which the public API is served (docs/protocol/public-api.md). */
const PUBLIC_API_PATH = '/v1/public';

/**
 * A hint when the base URL looks like the exchange's origin without the API's path: /pools/proof
 * answered 404 and the URL does not end in /v1/public. Null otherwise.
 */
function formatBaseUrlHint(report: AuditReport): string | null {
  const base = report.summary.baseUrl;
  const proof = report.findings.find(
    (f) =>
      f.code === 'FETCH_FAILED' &&
      (f.evidence as { section?: unknown } | undefined)?.section === '/pools/proof',
  );
  if (proof === undefined || !/answered status 404\b/.test(proof.message) || !URL.canParse(base)) return null;
  const u = new URL(base);
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith(PUBLIC_API_PATH)) return null;
  u.pathname = `${path}${PUBLIC_API_PATH}`;
  const suggested = u.toString();
  return `${base} answered 404 for /pools/proof; the public API is served under ${PUBLIC_API_PATH} — try --base-url ${suggested}`;
}
