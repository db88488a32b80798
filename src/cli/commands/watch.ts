/**
 * `reserve-audit watch --base-url <url> --mirror <file|postgres://…> [--every 30s] [--audit-every 5m]
 * [--stale-after 10m] [--metrics-port <port>] [--alert-webhook <url>]... [--alert-format json|slack]
 * [--log-format text|json]` — the long-running auditor (docs/watch.md): the loop of
 * src/run/watch.ts over the real steps (src/run/watch-steps.ts), metrics on a prom-client Registry
 * of its own served by src/io/metrics, alerts posted by src/io/alerts. stdout = one line per event
 * (text or JSON). SIGINT/SIGTERM finish the current step and stop cleanly: exit 0. A mirror it
 * cannot use ends it with 2; a bug with 3.
 */
import { Registry } from 'prom-client';
import {
  createWebhookSender,
  type WebhookSender,
  type WebhookSenderOptions,
} from '../../io/alerts/webhook-sender.js';
import { loadTypesOrDefault } from '../../io/files/default-types.js';
import { loadReserveProfile } from '../../io/files/profile-file.js';
import { type MetricsServer, startMetricsServer } from '../../io/metrics/metrics-server.js';
import { openMirrorStore } from '../../io/store/index.js';
import { RETENTION_INTERVAL_MS } from '../../run/retention-policy.js';
import { runWatch, type WatchEvent } from '../../run/watch.js';
import type { WatchAlert } from '../../run/watch-alerts.js';
import { SYSTEM_WATCH_CLOCK } from '../../run/watch-clock.js';
import { createWatchMetrics, DEFAULT_METRICS_MAX_POOLS } from '../../run/watch-metrics.js';
import { createWatchSteps } from '../../run/watch-steps.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import {
  assertRemoteIntervals,
  baseUrlOption,
  describeNonHttpUrl,
  failOptionText,
  parseBaseUrlOption,
  parseIntegerOption,
  parseIntervalOption,
  parseMirrorOption,
  parseProofSourceOptions,
  parseRetentionOptions,
  parseSnapshotFetchOptions,
  proofSourceOptions,
  recordingMirrorOption,
  retentionOptions,
  snapshotFetchOptions,
} from '../options.js';
import { formatAlertBody, formatAlertKey, formatWatchEvent } from '../render/watch.js';
import { COMMAND_CATALOG } from './catalog.js';

/** how long a stop waits for alerts still being delivered */
const ALERT_GRACE_MS = 5_000;

function parseWebhookOption(value: string): string {
  const notHttp = describeNonHttpUrl(value);
  if (notHttp !== null) failOptionText('alert-webhook', 'an absolute http(s) URL', notHttp);
  return value;
}

/** The log fields of a webhook delivery (or of an attempt at one). */
function deliveryLogFields(d: Parameters<NonNullable<WebhookSenderOptions['onDone']>>[0]) {
  return { webhook: d.webhook, key: d.dedupKey, attempts: d.attempts, detail: d.detail };
}

export const watchCommand = defineCommand({
  ...COMMAND_CATALOG.watch,
  stopsGracefully: true,
  builder: (y) =>
    y
      .option('base-url', baseUrlOption)
      .option('mirror', recordingMirrorOption)
      .option('every', { type: 'string', default: '30s', describe: 'take a snapshot every <duration>' })
      .option('audit-every', { type: 'string', default: '5m', describe: 'run a full audit every <duration>' })
      .option('stale-after', {
        type: 'string',
        default: '10m',
        describe: 'alert (warning) when no audit could decide for longer than <duration>',
      })
      .option('metrics-port', {
        type: 'number',
        describe: 'serve /metrics, /healthz and /readyz on this port (0 = any free port)',
      })
      .option('metrics-host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'address the metrics port binds',
      })
      .option('metrics-max-pools', {
        type: 'number',
        default: DEFAULT_METRICS_MAX_POOLS,
        describe: 'pools with per-pool series at most (the first by pool ID; 0..10000)',
      })
      .option('alert-webhook', {
        type: 'string',
        array: true,
        default: [] as string[],
        describe: 'POST alerts as JSON to this URL (repeatable)',
      })
      .option('alert-format', {
        type: 'string',
        choices: ['json', 'slack'] as const,
        default: 'json' as const,
        describe: 'webhook body: plain JSON, or Slack-compatible (text plus the same fields)',
      })
      .option('log-format', {
        type: 'string',
        choices: ['text', 'json'] as const,
        default: 'text' as const,
        describe: 'one line per event on stdout: text, or one JSON object',
      })
      .options(retentionOptions)
      .options(snapshotFetchOptions)
      .options(proofSourceOptions),
  run: async (args, ctx, stopSignal) => {
    const baseUrl = parseBaseUrlOption(args['base-url']);
    const mirrorPath = parseMirrorOption(args.mirror, ctx);
    const { timeoutMs, pacing } = parseSnapshotFetchOptions(args);
    const everyMs = parseIntervalOption('every', args.every);
    const auditEveryMs = parseIntervalOption('audit-every', args['audit-every']);
    const staleAfterMs = parseIntervalOption('stale-after', args['stale-after']);
    assertRemoteIntervals(baseUrl, [
      { name: 'every', ms: everyMs, text: args.every },
      { name: 'audit-every', ms: auditEveryMs, text: args['audit-every'] },
    ]);
    const metricsPort =
      args['metrics-port'] === undefined
        ? null
        : parseIntegerOption('metrics-port', args['metrics-port'], { min: 0, max: 65535 });
    const maxPools = parseIntegerOption('metrics-max-pools', args['metrics-max-pools'], {
      min: 0,
      max: 10_000,
    });
    const webhooks = args['alert-webhook'].map(parseWebhookOption);
    const alertFormat = args['alert-format'];
    const logFormat = args['log-format'];
    const retention = parseRetentionOptions(args, mirrorPath);
    const { profilePath, typeFiles, dars } = parseProofSourceOptions(args);

    const types = await loadTypesOrDefault({ typeFiles, dars, cwd: ctx.cwd });
    const profile = await loadReserveProfile({ profilePath, cwd: ctx.cwd });
    const clock = SYSTEM_WATCH_CLOCK;
    let lastRecordedMs: number | null = null;
    const log = (e: WatchEvent): void => {
      const now = clock.now();
      if ((e.event === 'snapshot' && e.result !== 'failed') || (e.event === 'audit' && e.snapshot_id != null))
        lastRecordedMs = now;
      ctx.stdout.write(formatWatchEvent(e, logFormat, now));
    };

    const mirror = await openMirrorStore(mirrorPath);
    const registry = new Registry();
    const metrics = createWatchMetrics(registry, { maxPools });
    let server: MetricsServer | null = null;
    let sender: WebhookSender | null = null;
    const stop = new AbortController();
    void stopSignal.then((signal) => {
      log({ level: 'info', event: 'stopping', signal, note: 'finishing the current step' });
      stop.abort();
    });
    try {
      // ready while the last recorded snapshot is at most three intervals old (and one request budget)
      const readyWithinMs = 3 * everyMs + timeoutMs;
      if (metricsPort !== null) {
        server = await startMetricsServer({
          registry,
          port: metricsPort,
          host: args['metrics-host'],
          readiness: () => {
            if (lastRecordedMs === null) return { ready: false, reason: 'no snapshot recorded yet' };
            const age = clock.now() - lastRecordedMs;
            const ago = `last snapshot ${Math.round(age / 1000)} s ago`;
            const ready = age <= readyWithinMs;
            return { ready, reason: ready ? ago : `${ago} (limit ${Math.round(readyWithinMs / 1000)} s)` };
          },
        });
        log({ level: 'info', event: 'metrics-listening', url: `${server.url}/metrics` });
      }
      const pending = new Map<string, WatchAlert>();
      if (webhooks.length > 0)
        sender = createWebhookSender({
          urls: webhooks,
          onDone: (d) => {
            const a = pending.get(d.dedupKey);
            if (a !== undefined) metrics.observeAlert(a, d.delivered);
            const event = d.delivered ? 'alert-delivered' : 'alert-undelivered';
            log({ level: d.delivered ? 'info' : 'error', event, ...deliveryLogFields(d) });
          },
          onRetry: (d) =>
            log({ level: 'warn', event: 'alert-retry', ...deliveryLogFields(d), wait_ms: d.waitMs }),
        });
      const steps = createWatchSteps({
        baseUrl,
        mirrorPath,
        mirror,
        types,
        typeFiles,
        dars,
        profile,
        timeoutMs,
        ...pacing,
        probeQuotes: args['probe-quotes'],
        env: ctx.env,
        cwd: ctx.cwd,
        onAttempt: (a) => metrics.observeAttempt(a),
      });
      await runWatch({
        baseUrl: baseUrl.display,
        mirror,
        everyMs,
        auditEveryMs,
        staleAfterMs,
        steps,
        stop: stop.signal,
        log,
        clock,
        metrics,
        retention: retention === null ? null : { ...retention, everyMs: RETENTION_INTERVAL_MS },
        alert: (a) => {
          const key = formatAlertKey(a);
          pending.set(key, a);
          sender?.send(formatAlertBody(a, alertFormat, baseUrl.display), key);
        },
      });
    } finally {
      await sender?.close(ALERT_GRACE_MS);
      await server?.close();
      await mirror.close();
    }
    return EXIT_OK;
  },
});
