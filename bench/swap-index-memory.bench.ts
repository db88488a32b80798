/**
 * Memory of the reference server's swap-event index (src/core/amm/swap-event-index.ts; results in
 * docs/bench/amm.md "Swap-event index memory"). Builds BENCH_EVENTS (200,000) synthetic swap
 * events shaped like the simulator's (200 pools, 5,000 traders, 10-place amounts), then indexes
 * them, and prints the heap bytes per event of the events themselves and of the index on top.
 * Run with a collectable heap: `node --expose-gc --import tsx bench/swap-index-memory.bench.ts`.
 */
import { loadavg } from 'node:os';
import { SwapEventIndex } from '../src/core/amm/swap-event-index.js';
import type { SwapEvent } from '../src/core/amm/types.js';

const N = Number(process.env.BENCH_EVENTS ?? 200_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  process.stderr.write('run with node --expose-gc --import tsx (see the header)\n');
  process.exit(2);
}

/** A 10-place amount that varies with the event. */
const amount = (i: number, k: number): string =>
  `${(i * 7919 + k) % 100_000}.${String((i * 104_729 + k) % 1e10).padStart(10, '0')}`;

function makeEvent(i: number): SwapEvent {
  return {
    seq: i,
    tsMs: 1_700_000_000_000 + i * 100,
    poolId: `pool-${i % 200}`,
    trader: `party-${i % 5_000}::1220${(i % 5_000).toString(16).padStart(64, '0')}`,
    sell: { admin: 'dso::1220aa', id: 'Amulet' },
    buy: { admin: 'issuer::1220bb', id: `TOK${i % 50}` },
    sellAmount: amount(i, 1),
    buyAmount: amount(i, 2),
    poolFee: amount(i, 3),
    protocolFee: amount(i, 4),
    lpFee: amount(i, 5),
    volumeCc: amount(i, 6),
    feeCc: amount(i, 7),
    protocolFeeCc: amount(i, 8),
    lpFeeCc: amount(i, 9),
    baseAmount: amount(i, 10),
    quoteAmount: amount(i, 11),
    priceAfter: amount(i, 12),
    executionSeconds: `${(i % 9) + 1}.${String(i % 100).padStart(2, '0')}`,
  };
}

/** Heap in use after full collections (a few rounds, with turns of the event loop for sweeping). */
async function heap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

const h0 = await heap();
// through JSON so every string is flat, as the simulator's are (read from SQLite or formatted once):
// the index's parsing must not be charged for flattening the events' own strings
const events: SwapEvent[] = JSON.parse(JSON.stringify(Array.from({ length: N }, (_, i) => makeEvent(i))));
const h1 = await heap();
const index = new SwapEventIndex();
for (const e of events) index.append(e);
const h2 = await heap();
if (!index.isExact()) throw new Error('the synthetic events left the exact index');
const per = (b: number): number => Math.round(b / N);
process.stdout.write(
  `node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n` +
    `${N} events: the events ${per(h1 - h0)} B/event, the index on top ${per(h2 - h1)} B/event ` +
    `(${(((h2 - h1) / (h1 - h0)) * 100).toFixed(0)} % of the events)\n`,
);
