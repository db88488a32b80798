/**
 * `report --html`: one self-contained HTML page (no script, no external resource, nothing
 * fetched at view time) with the latest audit run — outcome, checks, findings — and per pool
 * inline-SVG line charts of reserves, price and LP-share value over time (the issue "report").
 * Chart values are converted to binary64 for plotting only.
 */
import type { CheckOutcome, Finding } from '../../core/audit/index.js';
import type { PoolHistoryRow } from '../../run/history.js';

export interface HtmlReportInput {
  readonly title: string;
  readonly generatedAt: string;
  readonly latestRun: {
    readonly id: number;
    readonly baseUrl: string;
    readonly startedAt: string;
    readonly outcome: string;
    readonly checks: readonly CheckOutcome[];
    readonly findings: readonly Finding[];
    /** what the run covered and did not (summary.coverage of the run as lines); absent for older runs */
    readonly coverage?: readonly string[];
  } | null;
  readonly pools: ReadonlyMap<string, readonly PoolHistoryRow[]>;
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
}

const W = 560;
const H = 160;
const PAD = { l: 70, r: 10, t: 20, b: 24 };

const fmt = (v: number): string =>
  Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0)
    ? v.toExponential(3)
    : Number(v.toPrecision(6)).toString();

/** One line chart as an inline SVG (each series scaled to the shared y range). */
export function formatSvgChart(title: string, series: readonly Series[]): string {
  const all = series.flatMap((s) => s.points);
  if (all.length === 0)
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" role="img"><title>${escapeHtml(title)}</title><text x="10" y="20">${escapeHtml(title)}: no data</text></svg>`;
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
  if (y0 === y1) [y0, y1] = [y0 - Math.abs(y0 || 1) * 0.01, y1 + Math.abs(y1 || 1) * 0.01];
  const sx = (x: number): number => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const sy = (y: number): number => H - PAD.b - ((y - y0) / (y1 - y0)) * (H - PAD.t - PAD.b);
  const lines = series
    .map((s) => {
      const d = s.points
        .map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`)
        .join(' ');
      const dots =
        s.points.length === 1
          ? `<circle cx="${sx(s.points[0]![0]).toFixed(1)}" cy="${sy(s.points[0]![1]).toFixed(1)}" r="3" fill="${s.color}"/>`
          : '';
      return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.5"/>${dots}`;
    })
    .join('');
  const legend = series
    .map(
      (s, i) =>
        `<text x="${PAD.l + 8 + i * 130}" y="14" fill="${s.color}" font-size="11">${escapeHtml(s.name)}</text>`,
    )
    .join('');
  const axis = `<line x1="${PAD.l}" y1="${H - PAD.b}" x2="${W - PAD.r}" y2="${H - PAD.b}" stroke="#999"/><line x1="${PAD.l}" y1="${PAD.t}" x2="${PAD.l}" y2="${H - PAD.b}" stroke="#999"/>`;
  const labels =
    `<text x="${PAD.l - 4}" y="${PAD.t + 8}" text-anchor="end" font-size="10">${fmt(y1)}</text>` +
    `<text x="${PAD.l - 4}" y="${H - PAD.b}" text-anchor="end" font-size="10">${fmt(y0)}</text>` +
    `<text x="${PAD.l}" y="${H - 6}" font-size="10">${escapeHtml(new Date(x0).toISOString().slice(0, 16))}</text>` +
    `<text x="${W - PAD.r}" y="${H - 6}" text-anchor="end" font-size="10">${escapeHtml(new Date(x1).toISOString().slice(0, 16))}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img"><title>${escapeHtml(title)}</title>${axis}${labels}${lines}${legend}</svg>`;
}

function points(
  rows: readonly PoolHistoryRow[],
  pick: (r: PoolHistoryRow) => string | null,
): [number, number][] {
  const out: [number, number][] = [];
  for (const r of rows) {
    const v = pick(r);
    const y = v === null ? Number.NaN : Number(v);
    if (Number.isFinite(y)) out.push([Date.parse(r.time), y]);
  }
  return out;
}

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;font-size:12px}.pass{color:#176f2c}.fail{color:#b00020;font-weight:bold}.ccc{color:#a15c00}.skip{color:#777}section{margin-bottom:2em}svg{display:block;margin:.3em 0;background:#fafafa}code{font-size:12px}`;

export function formatHtmlReport(x: HtmlReportInput): string {
  const parts: string[] = [];
  parts.push(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(x.title)}</title><style>${CSS}</style></head><body>`,
  );
  parts.push(
    `<h1>${escapeHtml(x.title)}</h1><p>Generated ${escapeHtml(x.generatedAt)}. A pass proves that each published reserve contract is internally consistent with its contract ID and with everything else the API asserts; it does not prove the contract exists or is active on the ledger.</p>`,
  );
  const r = x.latestRun;
  if (r === null) parts.push('<p>No audit run is recorded in this mirror.</p>');
  else {
    const cls = r.outcome === 'passed' ? 'pass' : r.outcome === 'failed' ? 'fail' : 'ccc';
    const n = (s: string): number => r.checks.filter((c) => c.status === s).length;
    parts.push(
      `<section><h2>Latest audit (run ${r.id})</h2><p><span class="${cls}">${escapeHtml(r.outcome.toUpperCase())}</span> — ${escapeHtml(r.baseUrl)} at ${escapeHtml(r.startedAt)}: ${n('pass')} checks passed, ${n('fail')} failed, ${n('could-not-check')} could not check, ${n('skipped')} skipped.</p>`,
    );
    if (r.coverage !== undefined && r.coverage.length > 0)
      parts.push(
        `<p>Coverage of this run — a pass proves no more than this:</p><ul class="coverage">${r.coverage.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      );
    if (r.findings.length > 0) {
      parts.push('<table><tr><th>severity</th><th>code</th><th>pool</th><th>label</th><th>message</th></tr>');
      for (const f of r.findings)
        parts.push(
          `<tr><td class="${f.severity === 'error' ? 'fail' : f.severity === 'warning' ? 'ccc' : ''}">${f.severity}</td><td><code>${escapeHtml(f.code)}</code></td><td>${escapeHtml(f.pool ?? '')}</td><td>${f.label}</td><td>${escapeHtml(f.message)}</td></tr>`,
        );
      parts.push('</table>');
    } else parts.push('<p>No findings.</p>');
    const bad = r.checks.filter((c) => c.status !== 'pass');
    if (bad.length > 0) {
      parts.push('<table><tr><th>check</th><th>pool</th><th>status</th><th>note</th></tr>');
      for (const c of bad)
        parts.push(
          `<tr><td>${escapeHtml(c.name)}</td><td>${escapeHtml(c.pool ?? '')}</td><td class="${c.status === 'fail' ? 'fail' : c.status === 'skipped' ? 'skip' : 'ccc'}">${c.status}</td><td>${escapeHtml(c.note ?? c.codes.join(' '))}</td></tr>`,
        );
      parts.push('</table>');
    }
    parts.push('</section>');
  }
  for (const [poolId, rows] of x.pools) {
    const last = rows[rows.length - 1];
    parts.push(
      `<section><h2>Pool ${escapeHtml(poolId)} ${escapeHtml(last?.symbol ?? '')}</h2><p>${rows.length} observations; latest contract <code>${escapeHtml((last?.contractId ?? '-').slice(0, 24))}…</code> (${escapeHtml(last?.verification ?? '')}).</p>`,
    );
    parts.push(
      formatSvgChart(`reserve_a of pool ${poolId}`, [
        { name: 'reserve_a', color: '#1f77b4', points: points(rows, (q) => q.reserveA) },
      ]),
    );
    parts.push(
      formatSvgChart(`reserve_b of pool ${poolId}`, [
        { name: 'reserve_b', color: '#ff7f0e', points: points(rows, (q) => q.reserveB) },
      ]),
    );
    parts.push(
      formatSvgChart(`price of pool ${poolId}`, [
        { name: 'price', color: '#2ca02c', points: points(rows, (q) => q.price) },
      ]),
    );
    parts.push(
      formatSvgChart(`LP-share value of pool ${poolId}`, [
        { name: 'LP-share value', color: '#9467bd', points: points(rows, (q) => q.lpShareValue) },
      ]),
    );
    parts.push('</section>');
  }
  parts.push('</body></html>\n');
  return parts.join('\n');
}
