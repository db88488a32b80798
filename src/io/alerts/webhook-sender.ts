/**
 * Webhook delivery for `watch` alerts (docs/watch.md "Alerts"): `send` queues a JSON body for every
 * URL and returns at once — a slow or dead receiver never holds up the checks. Each URL has its own
 * queue, delivered in order: a POST (undici) that succeeds on 2xx; a transport failure, a 429 or a
 * 5xx is retried with exponential backoff (jittered; a Retry-After in seconds is honoured, capped)
 * up to `maxAttempts`; any other status is final. A body whose `dedupKey` a URL already took (or
 * holds in its queue) is not sent again. A webhook URL often carries its secret in the path
 * (Slack's does): logs name a webhook by its origin only.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

interface WebhookDelivery {
  /** the webhook's index in the list and its origin (never its path: it may hold a secret) */
  readonly webhook: string;
  readonly dedupKey: string;
  readonly attempts: number;
  readonly delivered: boolean;
  /** the last status or transport error, for the log */
  readonly detail: string;
}

export interface WebhookSenderOptions {
  readonly urls: readonly string[];
  /** told when a body was delivered to a URL, or given up */
  readonly onDone?: (d: WebhookDelivery) => void;
  /** told before a retry */
  readonly onRetry?: (d: WebhookDelivery & { readonly waitMs: number }) => void;
  /** attempts per body and URL (default 6) */
  readonly maxAttempts?: number;
  /** first wait before a retry, doubled per attempt, jittered ×0.5–1 (default 1,000 ms) */
  readonly baseDelayMs?: number;
  /** the longest wait before a retry, a Retry-After included (default 60,000 ms) */
  readonly maxDelayMs?: number;
  /** one attempt's deadline (default 10,000 ms) */
  readonly timeoutMs?: number;
  /** bodies waiting per URL at most; the oldest is dropped beyond (default 100) */
  readonly maxQueue?: number;
}

export interface WebhookSender {
  /** queues `body` for every URL (`dedupKey`: the same key is delivered once per URL) */
  send(body: unknown, dedupKey: string): void;
  /** waits until every queue is empty, at most `graceMs`; then stops retrying */
  close(graceMs: number): Promise<void>;
}

/** `#1 https://hooks.example.com`: how logs name a webhook. */
function describeWebhook(url: string, i: number): string {
  return URL.canParse(url) ? `#${i + 1} ${new URL(url).origin}` : `#${i + 1}`;
}

function retryAfterMs(header: string | string[] | undefined): number | null {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || !/^[0-9]{1,6}$/.test(v.trim())) return null;
  return Number(v.trim()) * 1000;
}

export function createWebhookSender(o: WebhookSenderOptions): WebhookSender {
  const maxAttempts = o.maxAttempts ?? 6;
  const baseDelay = o.baseDelayMs ?? 1_000;
  const maxDelay = o.maxDelayMs ?? 60_000;
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxQueue = o.maxQueue ?? 100;
  const closing = new AbortController();

  // a wait ends early (resolved, not rejected) when the sender closes
  const wait = (ms: number): Promise<void> =>
    sleep(ms, undefined, { signal: closing.signal }).catch(() => {});

  const queues = o.urls.map((url, i) => ({
    url,
    name: describeWebhook(url, i),
    pending: [] as { body: string; key: string }[],
    taken: new Set<string>(),
    running: null as Promise<void> | null,
  }));

  async function deliver(q: (typeof queues)[number], item: { body: string; key: string }): Promise<void> {
    let detail = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfter: number | null = null;
      let retryable = true;
      try {
        const res = await request(q.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'reserve-audit-watch' },
          body: item.body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.any([closing.signal, AbortSignal.timeout(timeoutMs)]),
        });
        await res.body.dump();
        detail = `HTTP ${res.statusCode}`;
        if (res.statusCode >= 200 && res.statusCode < 300) {
          o.onDone?.({ webhook: q.name, dedupKey: item.key, attempts: attempt, delivered: true, detail });
          return;
        }
        retryable = res.statusCode === 429 || res.statusCode >= 500;
        retryAfter = retryAfterMs(res.headers['retry-after']);
      } catch (e) {
        detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      }
      if (!retryable || attempt === maxAttempts || closing.signal.aborted) break;
      const backoff = Math.round(
        Math.min(maxDelay, baseDelay * 2 ** (attempt - 1)) * (0.5 + Math.random() * 0.5),
      );
      const waitMs = Math.min(maxDelay, retryAfter ?? backoff);
      o.onRetry?.({
        webhook: q.name,
        dedupKey: item.key,
        attempts: attempt,
        delivered: false,
        detail,
        waitMs,
      });
      await wait(waitMs);
      if (closing.signal.aborted) break;
    }
    o.onDone?.({ webhook: q.name, dedupKey: item.key, attempts: maxAttempts, delivered: false, detail });
  }

  function pump(q: (typeof queues)[number]): void {
    if (q.running !== null) return;
    q.running = (async () => {
      for (let item = q.pending.shift(); item !== undefined; item = q.pending.shift()) await deliver(q, item);
    })().finally(() => {
      q.running = null;
    });
  }

  return {
    send(body, dedupKey) {
      const text = JSON.stringify(body);
      for (const q of queues) {
        if (q.taken.has(dedupKey)) continue;
        q.taken.add(dedupKey);
        q.pending.push({ body: text, key: dedupKey });
        if (q.pending.length > maxQueue) q.pending.shift();
        pump(q);
      }
    },
    async close(graceMs) {
      const all = Promise.all(queues.map((q) => q.running ?? Promise.resolve()));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
      closing.abort();
      await all;
    },
  };
}
