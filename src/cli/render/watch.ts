/**
 * What `watch` prints and posts (docs/watch.md "Logs", "Alerts"): one line per event — a JSON
 * object (`--log-format json`: `ts`, `level`, `event`, then the event's fields) or text
 * (`2026-11-26T18:00:00.000Z info snapshot result=ok pools=8 …`, control characters made visible)
 * — and the webhook body of an alert, as plain JSON or a Slack-compatible message (`text`, plus
 * the same fields, which Slack ignores).
 */
import { formatDisplayText } from '../../core/wire/display-text.js';
import type { WatchEvent } from '../../run/watch.js';
import type { WatchAlert } from '../../run/watch-alerts.js';

export type WatchLogFormat = 'text' | 'json';
export type AlertFormat = 'json' | 'slack';

function formatTextValue(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(',');
  if (typeof v === 'object' && v !== null) return JSON.stringify(v);
  return String(v);
}

/** One log line (with its newline) for an event at `atMs`. */
export function formatWatchEvent(e: WatchEvent, format: WatchLogFormat, atMs: number): string {
  const ts = new Date(atMs).toISOString();
  const { level, event, ...fields } = e;
  if (format === 'json') return `${JSON.stringify({ ts, level, event, ...fields })}\n`;
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${formatTextValue(v)}`);
  return `${formatDisplayText(`${ts} ${level} ${event}${parts.length === 0 ? '' : ` ${parts.join(' ')}`}`)}\n`;
}

/** The key under which an alert is delivered once per webhook: kind, status and incident start. */
export function formatAlertKey(a: WatchAlert): string {
  return `${a.kind}:${a.status}:${a.sinceMs}`;
}

/** The webhook body of an alert. `baseUrl` is the exchange's shown (credential-stripped) URL. */
export function formatAlertBody(
  a: WatchAlert,
  format: AlertFormat,
  baseUrl: string,
): Record<string, unknown> {
  const body = {
    status: a.status,
    severity: a.severity,
    alert: a.kind,
    codes: a.codes,
    pools: a.pools,
    evidence: a.evidence,
    base_url: baseUrl,
    since: new Date(a.sinceMs).toISOString(),
    at: new Date(a.atMs).toISOString(),
  };
  if (format === 'json') return body;
  const what =
    a.kind === 'audit-failed'
      ? a.status === 'firing'
        ? `reserve audit FAILED (${a.codes.join(', ')})`
        : 'reserve audit passes again'
      : a.status === 'firing'
        ? 'reserve audit could not check for too long'
        : 'reserve audit decides again';
  const icon =
    a.status === 'resolved'
      ? ':white_check_mark:'
      : a.severity === 'critical'
        ? ':rotating_light:'
        : ':warning:';
  const lines = [`${icon} *${a.status.toUpperCase()}* ${what} — ${baseUrl}`];
  if (a.pools.length > 0) lines.push(`pools: ${a.pools.join(', ')}`);
  if (a.evidence !== '') lines.push(a.evidence);
  return { text: lines.map((l) => formatDisplayText(l)).join('\n'), ...body };
}
