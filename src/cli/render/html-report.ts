/**
 * `report --html` and `audit --html`: one self-contained HTML page (issue 13 "the report") — the
 * verdict first (exchange, time, outcome, proven vs asserted counts, what a pass proves and does not
 * prove), then the findings (errors, warnings, then the rest), the checks that did not pass, a pool
 * table that sorts and filters, and per pool charts of the reserve history with its swaps, price,
 * LP-share value and TVL. The charts are drawn by uPlot (inlined with the page's script,
 * dist/web/report.js) from a compact JSON island, only when a pool's charts scroll into view, so a
 * 1,000-pool exchange stays small and opens fast. Everything works offline; the tables are plain
 * HTML, readable without script. Chart values are binary64 for plotting only; the tables show the
 * exact decimal strings. An audit that did not complete gets a page of its own (`formatHtmlFailure`):
 * the verdict "could not check" (or "internal error") and the reason, nothing else.
 */
import type { Finding } from '../../core/audit/index.js';
import { formatDisplayText } from '../../core/wire/display-text.js';
import type { PoolHistoryRow } from '../../run/history.js';
import type { AuditFailure } from './audit-failure.js';
import { REPORT_CSS } from './report-css.js';
import type { ReportModel, ReportPoolRow } from './report-model.js';

/**
 * Escapes text for HTML content and attributes; control and bidirectional-control characters are
 * shown as visible `\uXXXX` escapes (src/core/wire/display-text.ts), line breaks kept.
 */
export function escapeHtml(s: string): string {
  return escapeMarkup(formatDisplayText(s, true), '&#39;');
}

/** `&`, `<`, `>`, `"` and `'` as entities; `'` as `apos` (`&#39;` for HTML, `&apos;` for XML). */
export function escapeMarkup(s: string, apos: '&#39;' | '&apos;'): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, apos);
}

/** The page's inlined assets: the bundled script (uPlot + table/chart code) and uPlot's CSS. */
export interface ReportAssets {
  readonly script: string;
  readonly css: string;
}

/**
 * One pool's chart data, compact: `t` is the first observation's time in seconds followed by the
 * seconds since the previous one; the series hold one number (7 significant digits — far finer
 * than a pixel on an axis spanning at least 2 % of the value) or null per observation.
 */
export interface PoolChartData {
  readonly t: readonly number[];
  readonly a: readonly (number | null)[];
  readonly b: readonly (number | null)[];
  readonly price: readonly (number | null)[];
  readonly lp: readonly (number | null)[];
  readonly tvl: readonly (number | null)[];
  /** indexes of observations where the reserve contract changed (a swap or a liquidity change) */
  readonly swaps: readonly number[];
}

const num = (v: string | null): number | null => {
  if (v === null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? Number(n.toPrecision(7)) : null;
};

const sameValues = (x: PoolHistoryRow, y: PoolHistoryRow): boolean =>
  x.contractId === y.contractId &&
  x.reserveA === y.reserveA &&
  x.reserveB === y.reserveB &&
  x.price === y.price &&
  x.lpShareValue === y.lpShareValue &&
  x.tvlCc === y.tvlCc;

/**
 * The chart points of a pool's history: an observation that repeats the previous one's values is
 * left out (the charts are steps, so nothing is lost), except the last, which carries the line to
 * the latest observation.
 */
export function buildPoolChartData(all: readonly PoolHistoryRow[]): PoolChartData {
  const rows = all.filter((r, i) => i === 0 || i === all.length - 1 || !sameValues(r, all[i - 1]!));
  const swaps: number[] = [];
  rows.forEach((r, i) => {
    if (i > 0 && r.contractId !== rows[i - 1]!.contractId) swaps.push(i);
  });
  return {
    t: rows.map(
      (r, i) =>
        Math.round(Date.parse(r.time) / 1000) -
        (i === 0 ? 0 : Math.round(Date.parse(rows[i - 1]!.time) / 1000)),
    ),
    a: rows.map((r) => num(r.reserveA)),
    b: rows.map((r) => num(r.reserveB)),
    price: rows.map((r) => num(r.price)),
    lp: rows.map((r) => num(r.lpShareValue)),
    tvl: rows.map((r) => num(r.tvlCc)),
    swaps,
  };
}

/** JSON safe inside a <script> element. */
function jsonForScript(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const OUTCOME_TEXT: Record<string, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  'could-not-check': 'COULD NOT CHECK',
  'internal-error': 'INTERNAL ERROR',
};

const SEVERITIES = [
  { key: 'error', title: 'Errors', open: true },
  { key: 'warning', title: 'Warnings', open: true },
  { key: 'info', title: 'Information', open: false },
] as const;

function findingRows(fs: readonly Finding[]): string {
  return fs
    .map(
      (f) =>
        `<tr class="${f.severity}"><td><code>${escapeHtml(f.code)}</code></td><td>${escapeHtml(f.label)}</td><td>${escapeHtml(f.pool ?? 'exchange')}</td><td>${escapeHtml(f.message)}</td></tr>`,
    )
    .join('\n');
}

function formatFindings(m: ReportModel): string {
  const out: string[] = ['<section id="findings"><h2>Findings</h2>'];
  if (m.findings.length === 0) out.push('<p>No findings.</p>');
  for (const s of SEVERITIES) {
    const fs = m.findings.filter((f) => f.severity === s.key);
    if (fs.length === 0) continue;
    out.push(
      `<details class="findings ${s.key}" id="findings-${s.key}" data-count="${fs.length}"${s.open ? ' open' : ''}><summary>${s.title} (${fs.length})</summary>`,
      '<table><thead><tr><th>code</th><th>label</th><th>pool</th><th>message</th></tr></thead><tbody>',
      findingRows(fs),
      '</tbody></table></details>',
    );
  }
  out.push('</section>');
  return out.join('\n');
}

function formatChecks(m: ReportModel): string {
  const bad = m.checks.filter((c) => c.status !== 'pass' && c.status !== 'skipped');
  const skipped = m.checks.filter((c) => c.status === 'skipped');
  // the page's navigation links here: a passing report says so rather than leave the link dangling
  if (bad.length === 0 && skipped.length === 0)
    return `<section id="checks"><h2>Checks</h2><p>Every one of the ${m.checks.length} checks passed.</p></section>`;
  const row = (c: (typeof m.checks)[number]): string =>
    `<tr><td>${escapeHtml(c.name)}</td><td>${escapeHtml(c.pool ?? 'exchange')}</td><td class="st-${c.status}">${c.status}</td><td>${escapeHtml(c.codes.join(' ') || (c.note ?? ''))}</td></tr>`;
  const head =
    '<table><thead><tr><th>check</th><th>pool</th><th>status</th><th>codes / note</th></tr></thead><tbody>';
  return [
    '<section id="checks"><h2>Checks that did not pass</h2>',
    bad.length === 0
      ? '<p>Every check that ran passed.</p>'
      : `${head}${bad.map(row).join('\n')}</tbody></table>`,
    skipped.length === 0
      ? ''
      : `<details><summary>Skipped (${skipped.length})</summary>${head}${skipped.map(row).join('\n')}</tbody></table></details>`,
    '</section>',
  ].join('\n');
}

function poolFindingsText(p: ReportPoolRow): string {
  const parts: string[] = [];
  if (p.findings.error > 0) parts.push(`${p.findings.error} error${p.findings.error === 1 ? '' : 's'}`);
  if (p.findings.warning > 0)
    parts.push(`${p.findings.warning} warning${p.findings.warning === 1 ? '' : 's'}`);
  return parts.join(', ') || (p.findings.info > 0 ? `${p.findings.info} info` : '—');
}

const numAttr = (v: string | null): string => (v === null ? '' : ` data-sort="${escapeHtml(v)}"`);

function formatPoolTable(m: ReportModel): string {
  const rows = m.pools.map((p) => {
    const rank = p.findings.error * 1e6 + p.findings.warning * 1e3 + p.findings.info;
    const cls = p.findings.error > 0 ? 'error' : p.findings.warning > 0 ? 'warning' : '';
    return `<tr class="${cls}" data-pool="${escapeHtml(p.poolId)}"><td><a href="#pool-${escapeHtml(p.poolId)}">${escapeHtml(p.symbol ?? '?')}</a><div class="sub">${escapeHtml(p.poolId)}</div></td><td class="n"${numAttr(p.reserveA)}>${escapeHtml(p.reserveA ?? '—')}</td><td class="n"${numAttr(p.reserveB)}>${escapeHtml(p.reserveB ?? '—')}</td><td class="n"${numAttr(p.tvlCc)}>${escapeHtml(p.tvlCc ?? '—')}</td><td class="n"${numAttr(p.price)}>${escapeHtml(p.price ?? '—')}</td><td><code title="${escapeHtml(p.contractId ?? '')}">${escapeHtml(p.contractId === null ? '—' : `${p.contractId.slice(0, 12)}…`)}</code></td><td class="pr-${escapeHtml(p.proof)}">${escapeHtml(p.proof)}</td><td>${escapeHtml(p.lastChange?.replace('T', ' ').slice(0, 19) ?? '—')}</td><td data-sort="${rank}">${poolFindingsText(p)}</td></tr>`;
  });
  return [
    `<section id="pools"><h2>Pools (${m.pools.length})</h2>`,
    '<div class="controls"><input id="pool-filter" type="search" placeholder="filter: pair, pool id, contract, status…" aria-label="filter pools"> <label><input id="pool-problems" type="checkbox"> only pools with errors or warnings</label> <span id="pool-count"></span></div>',
    '<table id="pool-table"><thead><tr><th data-type="text">pair</th><th data-type="num">reserve A</th><th data-type="num">reserve B</th><th data-type="num">TVL (CC)</th><th data-type="num">price</th><th data-type="text">contract</th><th data-type="text">proof</th><th data-type="text">last change</th><th data-type="num">findings</th></tr></thead><tbody>',
    rows.join('\n'),
    '</tbody></table></section>',
  ].join('\n');
}

/** More pools than this: no chart boxes in the page; the script builds one when a pool is picked. */
const LAZY_CHART_POOLS = 50;

function chartBox(poolId: string, symbol: string | null, observations: number): string {
  return `<div class="pool-charts" id="pool-${escapeHtml(poolId)}" data-pool="${escapeHtml(poolId)}"><h3>${escapeHtml(symbol ?? '?')} <span class="sub">pool ${escapeHtml(poolId)} · ${observations} observation${observations === 1 ? '' : 's'}</span></h3><div class="chart" data-chart="reserves"></div><div class="chart" data-chart="price"></div><div class="chart" data-chart="tvl"></div></div>`;
}

function formatCharts(m: ReportModel): string {
  const lazy = m.pools.length > LAZY_CHART_POOLS;
  const out: string[] = [
    `<section id="charts" data-lazy="${lazy}"><h2>History</h2><p class="sub">Reserves (steps, contract changes marked), price and LP-share value, TVL — drawn when they scroll into view. Hover a chart for the values; the tables above hold the exact decimals. The y-axes span at least 2 % of the value, so a tiny move does not look like a cliff.${lazy ? ` This exchange has ${m.pools.length} pools: pick one in the pool table to see its charts.` : ''}</p>`,
  ];
  if (!lazy)
    for (const p of m.pools) out.push(chartBox(p.poolId, p.symbol, m.series.get(p.poolId)?.length ?? 0));
  out.push('</section>');
  return out.join('\n');
}

function formatVerdict(m: ReportModel): string {
  const r = m.run;
  if (r === null)
    return '<section id="verdict" class="verdict none" data-outcome="none"><h1>No audit run recorded</h1><p>This mirror holds snapshots but no audit run: run <code>reserve-audit audit --mirror …</code> to get a verdict.</p></section>';
  const c = r.counts;
  return `<section id="verdict" class="verdict ${escapeHtml(r.outcome)}" data-outcome="${escapeHtml(r.outcome)}" data-pools="${c.pools}" data-proofs-proven="${c.proofsProven}" data-errors="${c.findings.error}" data-warnings="${c.findings.warning}" data-info="${c.findings.info}" data-checks-pass="${c.checks.pass}" data-checks-fail="${c.checks.fail}" data-checks-could-not-check="${c.checks.couldNotCheck}" data-checks-skipped="${c.checks.skipped}">
<div class="outcome">${escapeHtml(OUTCOME_TEXT[r.outcome] ?? r.outcome)}</div>
<div class="who"><strong>${escapeHtml(r.baseUrl)}</strong><br>audited ${escapeHtml(r.startedAt)}</div>
<div class="tiles">
<div class="tile"><b>${c.proofsProven} / ${c.pools}</b>contract IDs verified from their blobs</div>
<div class="tile ${c.findings.error > 0 ? 'bad' : ''}"><b>${c.findings.error}</b>errors</div>
<div class="tile ${c.findings.warning > 0 ? 'warn' : ''}"><b>${c.findings.warning}</b>warnings</div>
<div class="tile"><b>${c.labels.proven} / ${c.labels.asserted}</b>errors + warnings proven / asserted</div>
<div class="tile"><b>${c.checks.pass} / ${c.checks.pass + c.checks.fail + c.checks.couldNotCheck}</b>checks passed${c.checks.couldNotCheck > 0 ? ` · ${c.checks.couldNotCheck} could not check` : ''}${c.checks.skipped > 0 ? ` · ${c.checks.skipped} skipped` : ''}</div>
</div>${formatCoverage(r.coverage)}</section>`;
}

/** What the run covered and did not, right under the verdict, so a pass is never read as more than it is. */
function formatCoverage(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return `<p>Coverage of this run — a pass proves no more than this:</p><ul class="coverage">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
}

const PROVES = `<section id="meaning" class="meaning"><details><summary>What a pass proves, and what it does not</summary>
<p><b>Proven</b> findings are discrepancies proven against the exchange's own data: each published reserve contract's ID was recomputed from its <code>created_event_blob</code> (template, arguments, signatories, creation time), so the blob and the ID belong together, and what the API says elsewhere must agree with it. <b>Asserted</b> findings compare what the API says with itself and with its own history.</p>
<p>Each pool reaches an <b>assurance level</b>: <b>ledger-confirmed</b> (a Canton participant read with <code>--ledger-api</code> reports the contract created with that very blob and not archived; this rests on that participant), <b>id-verified</b> (the ID recomputes from the blob: consistent, but not proven to exist or to be still active on the ledger), <b>asserted</b> or <b>unverifiable</b>.</p>
<p>A pass does <b>not</b> prove that the tokens behind the reserves exist, nor — below ledger-confirmed — that the contract exists or is still active on the ledger; it proves that what was published is internally consistent and cannot have been altered after the contract was created.</p></details></section>`;

/** The whole page. */
export function formatHtmlReport(m: ReportModel, assets: ReportAssets): string {
  const data: Record<string, PoolChartData> = {};
  for (const p of m.pools) {
    const rows = m.series.get(p.poolId);
    if (rows !== undefined) data[p.poolId] = buildPoolChartData(rows);
  }
  const nav = `<nav><a href="#verdict">Verdict</a> <a href="#findings">Findings (${m.findings.filter((f) => f.severity === 'error').length} errors, ${m.findings.filter((f) => f.severity === 'warning').length} warnings)</a> <a href="#checks">Checks</a> <a href="#pools">Pools (${m.pools.length})</a> <a href="#charts">History</a></nav>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(m.title)}</title><style>${assets.css}${REPORT_CSS}</style></head>
<body><main>
<header><div class="brand">reserve-audit report</div><div class="sub">generated ${escapeHtml(m.generatedAt)}</div></header>
${formatVerdict(m)}
${PROVES}
${nav}
${formatFindings(m)}
${formatChecks(m)}
${formatPoolTable(m)}
${formatCharts(m)}
</main>
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script>${assets.script}</script>
</body></html>
`;
}

/**
 * The page of an audit that did not complete (./audit-failure.ts): the verdict, the exchange, the
 * reason's code and message, and what it means — no check ran to its end, so nothing was verified.
 * Needs no script (nothing to sort or chart), so it is written even when the page's assets are not.
 */
export function formatHtmlFailure(f: AuditFailure): string {
  const meaning =
    f.outcome === 'internal-error'
      ? 'The audit stopped on an internal error — a bug in reserve-audit, not a verdict on the exchange (exit 3; run it again with <code>--debug</code> for the stack).'
      : 'The audit could not run to its end, so nothing was verified: this is not a pass (exit 2).';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(`reserve-audit report — ${f.baseUrl}`)}</title><style>${REPORT_CSS}</style></head>
<body><main>
<header><div class="brand">reserve-audit report</div><div class="sub">generated ${escapeHtml(f.at)}</div></header>
<section id="verdict" class="verdict ${f.outcome}" data-outcome="${f.outcome}" data-exit-code="${f.exitCode}" data-reason-code="${escapeHtml(f.reason.code)}">
<div class="outcome">${OUTCOME_TEXT[f.outcome]}</div>
<div class="who"><strong>${escapeHtml(f.baseUrl)}</strong><br>audit attempted ${escapeHtml(f.at)}</div>
<p class="reason"><code>${escapeHtml(f.reason.code)}</code> ${escapeHtml(f.reason.message)}</p>
<p class="reason">${meaning}</p>
</section>
</main></body></html>
`;
}
