/**
 * How far `mirror follow` trails the ledger (issue 26 target: ≤ 1 s lag at 3,000 swaps/min on 308
 * pools). The reference server in this process (8 seed pools + BENCH_FOLLOW_POOLS extra, default 300)
 * serves its JSON Ledger API (HS256 token, an auditor party observer); the demo traffic generator
 * sends BENCH_FOLLOW_SWAPS swaps a minute (default 3,000, Poisson arrivals, the ledger clock moving
 * with the wall clock); the follower (`runMirrorFollow`, every BENCH_FOLLOW_EVERY ms, default the command's 500)
 * writes into a fresh SQLite mirror for BENCH_FOLLOW_SECONDS (default 60). Two lags, in wall time:
 *
 * - sampled every 100 ms: now − when the oldest ledger update not yet in the mirror appeared (0 when
 *   the mirror holds the ledger end) — "the ledger end's time vs the followed offset's time";
 * - per update: when a round committed it − when it appeared on the ledger.
 *
 * Prints p50/p95/max of both, the rounds' durations and the totals.
 *
 *   npx tsx bench/ledger-follow.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBaseUrl } from '../src/io/http/base-url.js';
import { openMirrorStore } from '../src/io/store/index.js';
import { type FollowRound, runMirrorFollow } from '../src/run/mirror-follow.js';
import { createSeededRng } from '../src/sim/rng.js';
import { startTraffic } from '../src/sim/traffic.js';
import { mintReaderToken } from '../test/helpers/followed-ledger.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const extraPools = Number(process.env.BENCH_FOLLOW_POOLS ?? 300);
const swapsPerMinute = Number(process.env.BENCH_FOLLOW_SWAPS ?? 3000);
const seconds = Number(process.env.BENCH_FOLLOW_SECONDS ?? 60);
const everyMs = Number(process.env.BENCH_FOLLOW_EVERY ?? 500);
const SECRET = new TextEncoder().encode('the ledger api secret of the follow bench');
const AUDITOR = 'auditor::1220be0c';

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};
const line = (name: string, xs: readonly number[]): string =>
  `${name}: p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} samples)`;

const server = await startAuditServer({
  version: 'v12',
  extraPools,
  ledger: { secret: SECRET, auditorParty: AUDITOR },
});
const { ledgerUrl } = server;
const token = await mintReaderToken(SECRET, 'bench', [AUDITOR]);
const dir = mkdtempSync(join(tmpdir(), 'follow-bench-'));
const store = await openMirrorStore(join(dir, 'mirror.db'));
const pools = server.ex.activeReserveContracts(server.ex.ledgerEnd()).length;

// catch up with genesis first: the lag is measured on the live stream
await runMirrorFollow({ store, ledger: { baseUrl: ledgerUrl, token, party: AUDITOR }, once: true });

/** wall time (ms) at which each ledger offset appeared */
const appeared = new Map<number, number>();
let lastEnd = server.ex.ledgerEnd();
const t0 = performance.now();
const wallStart = Date.now();
const noteEnd = (): void => {
  const end = server.ex.ledgerEnd();
  const now = performance.now();
  for (let o = lastEnd + 1; o <= end; o++) appeared.set(o, now);
  lastEnd = end;
};
const traffic = startTraffic({
  swapsPerMinute,
  rng: createSeededRng('follow-bench'),
  exchange: server.ex,
  // the ledger clock moves with the wall clock, so ledger times are the swaps' real instants
  onSwap: () => noteEnd(),
});
const ledgerStart = server.clock.nowMs();
const ticker = setInterval(() => server.clock.setMs(ledgerStart + (Date.now() - wallStart)), 10);

let followed = server.ex.ledgerEnd();
const sampled: number[] = [];
const perUpdate: number[] = [];
const rounds: FollowRound[] = [];
const sampler = setInterval(() => {
  noteEnd();
  let oldest: number | null = null;
  for (let o = followed + 1; o <= lastEnd; o++) {
    const t = appeared.get(o);
    if (t !== undefined) {
      oldest = t;
      break;
    }
  }
  sampled.push(oldest === null ? 0 : performance.now() - oldest);
}, 100);
const stop = new AbortController();
setTimeout(() => stop.abort(), seconds * 1000);
const report = await runMirrorFollow({
  store,
  ledger: { baseUrl: ledgerUrl, token, party: AUDITOR },
  once: false,
  everyMs,
  stop: stop.signal,
  onRound: (r) => {
    const now = performance.now();
    for (let o = followed + 1; o <= r.toOffset; o++) {
      const t = appeared.get(o);
      if (t !== undefined) perUpdate.push(now - t);
    }
    followed = Math.max(followed, r.toOffset);
    rounds.push(r);
  },
});
traffic.stop();
clearInterval(sampler);
clearInterval(ticker);
const elapsed = (performance.now() - t0) / 1000;
const events = await store.readLedgerEvents({ participant: parseBaseUrl(ledgerUrl).display, party: AUDITOR });
console.log(
  `${pools} pools, ${swapsPerMinute} swaps/min target: ${traffic.count()} swaps sent in ${elapsed.toFixed(0)} s (${((traffic.count() / elapsed) * 60).toFixed(0)}/min), ${rounds.length} rounds every ${everyMs} ms, ${events.length} events in the mirror, outcome ${report.outcome}, chain findings ${report.findings.length}`,
);
console.log(line('lag, sampled every 100 ms (now − oldest update not yet followed)', sampled));
console.log(line('lag, per ledger update (committed − appeared)', perUpdate));
console.log(
  line(
    'round duration',
    rounds.map((r) => r.finishedAtMs - r.startedAtMs),
  ),
);
await store.close();
await server.close();
rmSync(dir, { recursive: true, force: true });
