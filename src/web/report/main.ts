/**
 * The HTML report's script (bundled with uPlot by scripts/build-web.mjs into dist/web/report.js,
 * inlined by `report --html` / `audit --html`): sorts and filters the pool table, and draws each
 * pool's charts with uPlot from the page's JSON island when they scroll into view (or when the pool
 * is picked in the table, for exchanges with many pools). Every number on an axis is formatted
 * with one unit and one number of decimals per axis; hover values are shown in full.
 */
import uPlot from 'uplot';
import { parseReportFragment } from './fragment.js';

interface PoolChartData {
  readonly t: number[];
  readonly a: (number | null)[];
  readonly b: (number | null)[];
  readonly price: (number | null)[];
  readonly lp: (number | null)[];
  readonly tvl: (number | null)[];
  readonly swaps: number[];
}

const DATA = JSON.parse(document.getElementById('report-data')?.textContent ?? '{}') as Record<
  string,
  PoolChartData
>;
// times are stored as the first time then deltas (seconds): make them absolute once
for (const d of Object.values(DATA)) for (let i = 1; i < d.t.length; i++) d.t[i] = d.t[i]! + d.t[i - 1]!;
const full = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 12 });
const UNITS: readonly [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** Tick labels of one axis: one unit (K, M, B) and one number of decimals for every tick. */
export function formatTicks(splits: readonly number[]): string[] {
  const max = Math.max(...splits.map((v) => Math.abs(v)));
  const [scale, unit] = UNITS.find(([s]) => max >= s * 10) ?? [1, ''];
  const step = splits.length > 1 ? Math.abs(splits[1]! - splits[0]!) / scale : max / scale || 1;
  const decimals = Math.min(12, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9)));
  const f = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return splits.map((v) => `${f.format(v / scale)}${unit}`);
}

/** A y range spanning at least 2 % of the value, so a 0.002 % move stays a flat line. */
function rangeOf(_u: uPlot, min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null) return [0, 1];
  const mid = (min + max) / 2;
  const span = Math.max(max - min, Math.abs(mid) * 0.02, 1e-12) * 1.1;
  return [mid - span / 2, mid + span / 2];
}

const hover = (_u: uPlot, v: number | null): string => (v === null ? '—' : full.format(v));

function axis(scale: string, label: string, side: 1 | 3 = 3, grid = true): uPlot.Axis {
  return {
    scale,
    side,
    label,
    size: 78,
    values: (_u, splits) => formatTicks(splits),
    grid: { show: grid, stroke: '#e6e8eb' },
  };
}

const TIME_AXIS: uPlot.Axis = { grid: { stroke: '#e6e8eb' } };

const charts: uPlot[] = [];

/** Draws chart `name` of a pool's box into its `data-chart` element, when the box has one. */
function draw(
  box: HTMLElement,
  name: string,
  title: string,
  opts: Omit<uPlot.Options, 'width' | 'height' | 'title'>,
  data: uPlot.AlignedData,
): void {
  const el = box.querySelector<HTMLElement>(`[data-chart="${name}"]`);
  if (el === null) return;
  charts.push(new uPlot({ ...opts, title, width: Math.max(320, el.clientWidth), height: 240 }, data, el));
}

function drawPool(box: HTMLElement): void {
  if (box.dataset.drawn === 'true') return;
  box.dataset.drawn = 'true';
  const d = DATA[box.dataset.pool ?? ''];
  if (d === undefined || d.t.length === 0) {
    for (const el of box.querySelectorAll('.chart')) el.textContent = 'No history recorded for this pool.';
    return;
  }
  const few = d.t.length <= 60;
  const swapMarks = d.a.map((v, i) => (d.swaps.includes(i) ? v : null));
  const stepped = uPlot.paths.stepped?.({ align: 1 });
  // a line of this pool's charts: 2 px, the full value on hover, its points drawn while they are few
  const line = (
    label: string,
    scale: string,
    stroke: string,
    paths?: uPlot.Series.PathBuilder,
  ): uPlot.Series => ({
    label,
    scale,
    stroke,
    width: 2,
    value: hover,
    ...(paths ? { paths } : {}),
    points: { show: few },
  });
  draw(
    box,
    'reserves',
    `Reserves — ${d.swaps.length} contract change${d.swaps.length === 1 ? '' : 's'} (swaps, liquidity)`,
    {
      scales: { x: { time: true }, a: { range: rangeOf }, b: { range: rangeOf } },
      axes: [TIME_AXIS, axis('a', 'reserve A'), axis('b', 'reserve B', 1, false)],
      series: [
        {},
        line('reserve A', 'a', '#1f77b4', stepped),
        line('reserve B', 'b', '#ff7f0e', stepped),
        {
          label: 'contract change',
          scale: 'a',
          stroke: '#d62728',
          value: hover,
          paths: () => null,
          points: { show: true, size: 9, fill: '#d62728' },
        },
      ],
    },
    [d.t, d.a, d.b, swapMarks],
  );
  draw(
    box,
    'price',
    'Price and LP-share value (√(A·B)/LP supply — never falls for an honest pool)',
    {
      scales: { x: { time: true }, p: { range: rangeOf }, l: { range: rangeOf } },
      axes: [TIME_AXIS, axis('p', 'price'), axis('l', 'LP-share value', 1, false)],
      series: [{}, line('price', 'p', '#2ca02c'), line('LP-share value', 'l', '#9467bd')],
    },
    [d.t, d.price, d.lp],
  );
  draw(
    box,
    'tvl',
    'TVL (CC)',
    {
      scales: { x: { time: true }, v: { range: rangeOf } },
      axes: [TIME_AXIS, axis('v', 'TVL (CC)')],
      series: [{}, line('TVL', 'v', '#17becf')],
    },
    [d.t, d.tvl],
  );
}

/** Many pools: the page holds no chart boxes; one is built when its pool is picked in the table. */
function createBox(poolId: string): HTMLElement | null {
  const section = document.getElementById('charts');
  const d = DATA[poolId];
  if (section === null || d === undefined) return null;
  const row = document.querySelector(`#pool-table tr[data-pool="${CSS.escape(poolId)}"] a`);
  const box = document.createElement('div');
  box.className = 'pool-charts';
  box.id = `pool-${poolId}`;
  box.dataset.pool = poolId;
  const h = document.createElement('h3');
  h.textContent = `${row?.textContent ?? '?'} `;
  const sub = document.createElement('span');
  sub.className = 'sub';
  sub.textContent = `pool ${poolId} · ${d.t.length} observation${d.t.length === 1 ? '' : 's'}`;
  h.append(sub);
  box.append(h);
  for (const name of ['reserves', 'price', 'tvl']) {
    const c = document.createElement('div');
    c.className = 'chart';
    c.dataset.chart = name;
    box.append(c);
  }
  section.append(box);
  return box;
}

function initCharts(): void {
  const boxes = Array.from(document.querySelectorAll<HTMLElement>('.pool-charts'));
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries)
        if (e.isIntersecting) {
          drawPool(e.target as HTMLElement);
          io.unobserve(e.target);
        }
    },
    { rootMargin: '300px' },
  );
  for (const b of boxes) io.observe(b);
  const show = (): void => {
    const pool = parseReportFragment(location.hash);
    if (pool === null) return;
    const box = document.getElementById(`pool-${pool}`) ?? createBox(pool);
    if (box === null) return;
    box.hidden = false;
    drawPool(box);
    box.scrollIntoView();
  };
  window.addEventListener('hashchange', show);
  show();
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      for (const c of charts)
        c.setSize({ width: Math.max(320, c.root.parentElement?.clientWidth ?? 320), height: 240 });
    });
  });
}

function sortKey(td: HTMLElement | undefined, numeric: boolean): number | string | null {
  if (td === undefined) return null;
  const raw = td.dataset.sort ?? td.textContent ?? '';
  if (!numeric) return raw.trim().toLowerCase();
  const n = Number.parseFloat(raw);
  return Number.isFinite(n) ? n : null;
}

function initTable(): void {
  const table = document.getElementById('pool-table') as HTMLTableElement | null;
  if (table === null) return;
  const body = table.tBodies[0]!;
  const heads = Array.from(table.tHead?.rows[0]?.cells ?? []);
  heads.forEach((th, col) => {
    th.addEventListener('click', () => {
      const dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
      for (const h of heads) h.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
      const numeric = th.dataset.type === 'num';
      const rows = Array.from(body.rows).map((r) => ({ r, k: sortKey(r.cells[col], numeric) }));
      rows.sort((x, y) => {
        if (x.k === null || y.k === null) return x.k === y.k ? 0 : x.k === null ? 1 : -1;
        return (x.k < y.k ? -1 : x.k > y.k ? 1 : 0) * dir;
      });
      body.append(...rows.map((x) => x.r));
    });
  });
  const filter = document.getElementById('pool-filter') as HTMLInputElement | null;
  const problems = document.getElementById('pool-problems') as HTMLInputElement | null;
  const count = document.getElementById('pool-count');
  const apply = (): void => {
    const q = (filter?.value ?? '').trim().toLowerCase();
    let shown = 0;
    for (const r of Array.from(body.rows)) {
      const text = `${r.textContent ?? ''} ${r.querySelector('code')?.title ?? ''}`.toLowerCase();
      const ok = (q === '' || text.includes(q)) && (!problems?.checked || r.classList.length > 0);
      r.hidden = !ok;
      if (ok) shown++;
    }
    if (count !== null) count.textContent = `${shown} of ${body.rows.length} shown`;
  };
  filter?.addEventListener('input', apply);
  problems?.addEventListener('change', apply);
  apply();
}

initTable();
initCharts();
document.body.dataset.ready = 'true';
