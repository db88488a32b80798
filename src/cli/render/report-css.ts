/** The HTML report's stylesheet (issue 13 "the report"): verdict banner, tables, full-width charts. */
export const REPORT_CSS = `
:root{--ok:#176f2c;--bad:#b00020;--warn:#8a5300;--line:#d0d4da;--muted:#5b6470;--bg:#f6f7f9}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d232b;background:var(--bg)}
main{max-width:1280px;margin:0 auto;padding:20px 24px}header{display:flex;justify-content:space-between;align-items:baseline}
.brand{font-weight:700;font-size:1.05rem}.sub{color:var(--muted);font-size:12px}
h2{font-size:1.15rem;margin:1.6em 0 .5em}h3{font-size:1rem;margin:1.2em 0 .3em}
.verdict{border-radius:10px;padding:16px 20px;margin:12px 0;border:1px solid var(--line);background:#fff;display:grid;grid-template-columns:auto 1fr;gap:6px 24px;align-items:center}
.verdict .outcome{font-size:2rem;font-weight:800;letter-spacing:.02em}.verdict .tiles{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:10px}
.verdict.passed{background:#e8f5ec;border-color:#9fd3ad}.verdict.passed .outcome{color:var(--ok)}
.verdict.failed{background:#fdecee;border-color:#f1a7b1}.verdict.failed .outcome{color:var(--bad)}
.verdict.could-not-check{background:#fff5e5;border-color:#f0c987}.verdict.could-not-check .outcome{color:var(--warn)}
.verdict.internal-error{background:#fdecee;border-color:#f1a7b1}.verdict.internal-error .outcome{color:var(--bad)}.verdict .reason{grid-column:1/-1;margin:0}
.tile{background:#fff;border:1px solid var(--line);border-radius:8px;padding:6px 12px;min-width:150px;font-size:12px;color:var(--muted)}
.tile b{display:block;font-size:1.25rem;color:#1d232b}.tile.bad b{color:var(--bad)}.tile.warn b{color:var(--warn)}
.meaning details{background:#fff;border:1px solid var(--line);border-radius:8px;padding:8px 14px}.meaning summary{cursor:pointer;font-weight:600}
nav{position:sticky;top:0;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);z-index:5}nav a{margin-right:16px;color:#1f4fd1;text-decoration:none}
details.findings{margin:8px 0}details.findings>summary{cursor:pointer;font-weight:700;padding:4px 0}
details.error>summary{color:var(--bad)}details.warning>summary{color:var(--warn)}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;font-size:12.5px}
th{background:#eef0f3;font-weight:600;white-space:nowrap;position:sticky;top:38px}
#pool-table th{cursor:pointer;user-select:none}#pool-table th[aria-sort=ascending]::after{content:" ▲"}#pool-table th[aria-sort=descending]::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}tr.error td:first-child{border-left:3px solid var(--bad)}tr.warning td:first-child{border-left:3px solid #e0a100}
code{font:12px ui-monospace,Menlo,Consolas,monospace}.st-fail,.pr-failed,.pr-mismatch{color:var(--bad);font-weight:600}.st-could-not-check,.pr-unverifiable,.pr-could-not-check,.pr-missing{color:var(--warn);font-weight:600}
.pr-proven,.pr-verified,.pr-ledger-confirmed,.pr-id-verified{color:var(--ok)}.pr-asserted{color:var(--bad);font-weight:600}.controls{margin:6px 0 8px}.controls input[type=search]{width:28em;max-width:100%;padding:5px 8px;border:1px solid var(--line);border-radius:6px}
.pool-charts{background:#fff;border:1px solid var(--line);border-radius:8px;padding:4px 14px 10px;margin:12px 0}
.chart{width:100%;min-height:260px;margin:6px 0}.uplot{font-family:inherit}.u-legend{font-size:12px}
`;
