/**
 * The HTML report of a large exchange in the system Chromium (`npm run bench:report`; results in
 * BENCHMARKS.md): a synthetic 1,000-pool report with 50 observations per pool — page size, time from
 * navigation to the script having wired the page (`body[data-ready]`), and time to draw one pool's
 * three charts when it is picked in the table. The floor, measured in the same run: the same number
 * of bytes of plain static HTML (no script). Options: BENCH_POOLS, BENCH_OBS.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatHtmlReport } from '../src/cli/render/html-report.js';
import { loadReportAssets } from '../src/cli/render/report-assets.js';
import { computeBigReportModel } from '../test/browser/big-report.js';
import { CHROMIUM, launchBrowser } from '../test/browser/browser.js';

const POOLS = Number(process.env.BENCH_POOLS ?? 1000);
const OBS = Number(process.env.BENCH_OBS ?? 50);

if (CHROMIUM === null)
  throw new Error('no chromium: install it (apt-get install chromium) to run this benchmark');
const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
const model = computeBigReportModel(POOLS, OBS);
const page = formatHtmlReport(model, await loadReportAssets());
const file = join(dir, 'report.html');
writeFileSync(file, page);
const floorFile = join(dir, 'floor.html');
const filler = '<p>static text of the same size, no script</p>\n';
writeFileSync(
  floorFile,
  `<!DOCTYPE html><html><body>${filler.repeat(Math.ceil(page.length / filler.length))}</body></html>`,
);
console.log(`${POOLS} pools × ${OBS} observations: ${(Buffer.byteLength(page) / 1024 / 1024).toFixed(2)} MB`);

const browser = await launchBrowser();
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor: number[] = [];
const ready: number[] = [];
const pick: number[] = [];
for (let run = 0; run < 5; run++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await ctx.newPage();
  let t = performance.now();
  await p.goto(pathToFileURL(floorFile).href, { waitUntil: 'load' });
  floor.push(performance.now() - t);
  t = performance.now();
  await p.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  ready.push(performance.now() - t);
  const id = model.pools[Math.floor(POOLS / 2)]!.poolId;
  t = performance.now();
  await p.click(`#pool-table tr[data-pool="${id}"] a`);
  await p.waitForSelector(`#pool-${id} .uplot >> nth=2`);
  pick.push(performance.now() - t);
  await ctx.close();
}
await browser.close();
const f = median(floor);
const r = median(ready);
console.log(`floor (same bytes of static HTML): ${f.toFixed(0)} ms`);
console.log(`report ready (table wired, script run): ${r.toFixed(0)} ms (${(r / f).toFixed(2)}× the floor)`);
console.log(`one pool's 3 charts drawn after the pick: ${median(pick).toFixed(0)} ms`);
