/**
 * The webhook sender (src/io/alerts/webhook-sender.ts) against local node:http receivers: `send`
 * returns at once, a key is delivered once per webhook, 503/429/resets are retried (Retry-After
 * honoured) and a 4xx is final, each webhook has its own queue (a dead one does not hold up a live
 * one), and `close` gives up after its grace instead of hanging on a receiver that never answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from '../../src/io/alerts/webhook-sender.js';
import { waitFor } from '../cli/helpers/spawn-cli.js';

const servers: { close(): void; closeAllConnections(): void }[] = [];
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

/** A receiver answering each POST with `answer(n)` (n = 1, 2, …); null = never answer. */
async function receiver(
  answer: (n: number) => { status: number; headers?: Record<string, string> } | null,
): Promise<{ url: string; bodies: unknown[]; posts: () => number; times: number[] }> {
  const bodies: unknown[] = [];
  const times: number[] = [];
  let posts = 0;
  const s = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      posts++;
      times.push(Date.now());
      const a = answer(posts);
      if (a === null) return;
      if (a.status < 300) bodies.push(JSON.parse(text));
      res.writeHead(a.status, a.headers ?? {}).end('ok');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook/secret`,
    bodies,
    posts: () => posts,
    times,
  };
}

describe('webhook sender', () => {
  it('delivers each key once per webhook; retries 503 and 429 (Retry-After), gives up on a 4xx', async () => {
    const flaky = await receiver((n) =>
      n === 1
        ? { status: 503 }
        : n === 2
          ? { status: 429, headers: { 'retry-after': '1' } }
          : { status: 200 },
    );
    const refusing = await receiver(() => ({ status: 404 }));
    const done: { webhook: string; delivered: boolean; attempts: number }[] = [];
    const sender = createWebhookSender({
      urls: [flaky.url, refusing.url],
      baseDelayMs: 10,
      onDone: (d) => done.push(d),
    });
    const t = Date.now();
    sender.send({ status: 'firing' }, 'k1');
    sender.send({ status: 'firing' }, 'k1');
    expect(Date.now() - t).toBeLessThan(50);
    await waitFor(() => done.length === 2, 10_000, 'both deliveries');
    expect(flaky.bodies).toEqual([{ status: 'firing' }]);
    expect(flaky.posts()).toBe(3);
    // the Retry-After of the 429 was waited out
    expect(flaky.times[2]! - flaky.times[1]!).toBeGreaterThanOrEqual(950);
    expect(refusing.posts()).toBe(1);
    expect(done.find((d) => d.webhook.startsWith('#2'))).toMatchObject({ delivered: false });
    expect(done.find((d) => d.webhook.startsWith('#1'))).toMatchObject({ delivered: true, attempts: 3 });
    // logs name a webhook by its origin, never its path
    expect(JSON.stringify(done)).not.toContain('secret');
    await sender.close(1_000);
  });

  it('a webhook that never answers holds up neither the other one nor close()', async () => {
    const dead = await receiver(() => null);
    const live = await receiver(() => ({ status: 200 }));
    const sender = createWebhookSender({ urls: [dead.url, live.url], timeoutMs: 60_000 });
    sender.send({ status: 'firing' }, 'a');
    sender.send({ status: 'resolved' }, 'b');
    await waitFor(() => live.bodies.length === 2, 5_000, 'the live webhook');
    const t = Date.now();
    await sender.close(300);
    expect(Date.now() - t).toBeLessThan(3_000);
    expect(dead.posts()).toBe(1);
  });
});
