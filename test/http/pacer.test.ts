/**
 * The auditor's pacing (src/io/http/pacer.ts) on a fake clock: the request rate, the number in
 * flight, a 429 halving the rate down to its floor, answers raising it back; and through the client
 * against a real server, that attempts (retries included) keep to the rate.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient, createPacer } from '../../src/io/http/index.js';

function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; sleeps: number[] } {
  let t = 1_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(Math.round(ms));
      t += ms;
    },
    sleeps,
  };
}

describe('createPacer', () => {
  /** the fake-clock time the next grant takes */
  async function gap(p: ReturnType<typeof createPacer>, c: ReturnType<typeof fakeClock>): Promise<number> {
    const t0 = c.now();
    (await p.acquire())();
    return Math.round(c.now() - t0);
  }

  it('spaces attempts at 1 / maxRps', async () => {
    const c = fakeClock();
    const p = createPacer({ maxRps: 20, maxInFlight: 100, now: c.now, sleep: c.sleep });
    (await p.acquire())();
    for (let i = 0; i < 4; i++) expect(await gap(p, c)).toBe(50);
  });

  it('a 429 halves the rate, never below maxRps / 50; answers raise it by maxRps / 10', async () => {
    const c = fakeClock();
    const p = createPacer({ maxRps: 50, maxInFlight: 100, now: c.now, sleep: c.sleep });
    (await p.acquire())();
    expect(await gap(p, c)).toBe(20);
    p.onThrottled(); // 25/s, from the next grant on
    expect(await gap(p, c)).toBe(40);
    for (let i = 0; i < 10; i++) p.onThrottled();
    expect(await gap(p, c)).toBe(1000); // the floor, 1/s
    p.onAnswered(); // 6/s
    expect(await gap(p, c)).toBe(167);
    for (let i = 0; i < 20; i++) p.onAnswered();
    expect(await gap(p, c)).toBe(20); // back to 50/s, not beyond
  });

  it('a queued request is granted at the rate in force when its turn comes, not when it queued', async () => {
    const c = fakeClock();
    const p = createPacer({ maxRps: 50, maxInFlight: 100, now: c.now, sleep: c.sleep });
    (await p.acquire())();
    for (let i = 0; i < 6; i++) p.onThrottled(); // ≈ 1.6/s
    const queued = [p.acquire(), p.acquire(), p.acquire()];
    for (let i = 0; i < 20; i++) p.onAnswered(); // recovered before the first turn
    const t0 = c.now();
    for (const q of queued) (await q)();
    expect(Math.round(c.now() - t0)).toBeLessThanOrEqual(3 * 20 + 50);
  });

  it('holds the attempts beyond maxInFlight until one is released', async () => {
    const p = createPacer({ maxRps: Number.POSITIVE_INFINITY, maxInFlight: 2 });
    const a = await p.acquire();
    const b = await p.acquire();
    let third = false;
    const c = p.acquire().then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    a();
    a(); // releasing twice frees one slot only
    const release = await c;
    expect(third).toBe(true);
    let fourth = false;
    void p.acquire().then(() => {
      fourth = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(fourth).toBe(false);
    b();
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(fourth).toBe(true);
  });
});

describe('the client keeps to its pace, retries included', () => {
  const open: Server[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) {
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('20 requests at --max-rps 40 with every other attempt a 503 take ≥ (attempts − 1) / 40 s', async () => {
    let n = 0;
    const times: number[] = [];
    const server = createServer((_req, res) => {
      times.push(Date.now());
      n++;
      res.writeHead(n % 2 === 1 ? 503 : 200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    open.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const client = createHttpClient({ maxRps: 40, maxInFlight: 4, retryBaseDelayMs: 1 });
    await Promise.all(Array.from({ length: 10 }, () => client.send('GET', url)));
    await client.close();
    const counts = client.counts();
    expect(counts.sent).toBe(times.length);
    expect(counts.retried).toBeGreaterThanOrEqual(5);
    const first = times[0] ?? 0;
    const last = times.at(-1) ?? 0;
    // the tokens are 25 ms apart; arrivals may bunch by a few ms
    expect(last - first).toBeGreaterThanOrEqual(((times.length - 1) * 1000) / 40 - 15);
  });
});
