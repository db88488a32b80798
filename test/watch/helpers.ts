/**
 * Helpers of the watch tests: a local webhook receiver (node:http, records every JSON body it is
 * posted, can answer with a chosen status first), the JSON log lines of a spawned `watch`, and the
 * watch loop run with its real steps on a clock of its own (`runWatchSteps`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadTypesOrDefault } from '../../src/io/files/default-types.js';
import { parseBaseUrl } from '../../src/io/http/index.js';
import type { MirrorStore } from '../../src/io/store/index.js';
import { runWatch, type WatchEvent } from '../../src/run/watch.js';
import type { WatchMetrics } from '../../src/run/watch-metrics.js';
import { createWatchSteps } from '../../src/run/watch-steps.js';

export interface WebhookReceiver {
  readonly url: string;
  /** the bodies received with a 2xx answer, in order */
  readonly bodies: Record<string, unknown>[];
  /** every POST received (answered or refused) */
  readonly attempts: () => number;
  close(): Promise<void>;
}

/** A webhook receiver; `failFirst` POSTs are answered 503 before it starts taking them. */
export async function startWebhookReceiver(o: { failFirst?: number } = {}): Promise<WebhookReceiver> {
  const bodies: Record<string, unknown>[] = [];
  let attempts = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      attempts++;
      if (attempts <= (o.failFirst ?? 0)) {
        res.writeHead(503).end();
        return;
      }
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/T000/B000/secret-path`,
    bodies,
    attempts: () => attempts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON log lines printed so far (`--log-format json`), skipping a partial last line. */
export function parseJsonLog(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{') && l.endsWith('}'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The metrics URL a watch logged (`metrics-listening`), or null. */
export function findMetricsUrl(stdout: string): string | null {
  const e = parseJsonLog(stdout).find((x) => x.event === 'metrics-listening');
  return typeof e?.url === 'string' ? e.url.replace(/\/metrics$/, '') : null;
}

const DAY_MS = 86_400_000;

/** The default retention policy, applied at start and then hourly. */
const WATCH_TEST_RETENTION = {
  keepRawMs: 7 * DAY_MS,
  archiveAfterMs: 30 * DAY_MS,
  everyMs: 3_600_000,
};

/**
 * Runs the watch loop with its real steps against `base` on `mirror`, its clock starting at
 * `startMs` and moving only by its own sleeps; stops after `steps` steps (0: only what it does at
 * start). Returns the events it logged.
 */
export async function runWatchSteps(o: {
  readonly base: string;
  readonly mirror: MirrorStore;
  readonly mirrorPath: string;
  readonly startMs: number;
  readonly steps: number;
  readonly metrics?: WatchMetrics;
}): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  const stop = new AbortController();
  if (o.steps === 0) stop.abort();
  let t = o.startMs;
  let done = 0;
  const real = createWatchSteps({
    baseUrl: parseBaseUrl(o.base),
    mirrorPath: o.mirrorPath,
    mirror: o.mirror,
    types: await loadTypesOrDefault({}),
    typeFiles: [],
    dars: [],
    cwd: process.cwd(),
    maxRps: 1000,
  });
  const counted = async <T>(f: () => Promise<T>): Promise<T> => {
    const r = await f();
    if (++done >= o.steps) stop.abort();
    return r;
  };
  await runWatch({
    baseUrl: parseBaseUrl(o.base).display,
    mirror: o.mirror,
    everyMs: 1_000,
    auditEveryMs: 60_000,
    staleAfterMs: 600_000,
    steps: { snapshot: () => counted(real.snapshot), audit: () => counted(real.audit) },
    stop: stop.signal,
    log: (e) => events.push(e),
    clock: {
      now: () => t,
      sleep: async (ms) => {
        t += ms;
      },
    },
    ...(o.metrics === undefined ? {} : { metrics: o.metrics }),
    retention: WATCH_TEST_RETENTION,
  });
  return events;
}
