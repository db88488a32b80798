/**
 * What `watch` prints and posts (src/cli/render/watch.ts): a JSON log line per event (ts, level,
 * event first), a text line with the exchange's control characters made visible, and the webhook
 * bodies — plain JSON with the interface fields, and the Slack-compatible one with a `text` line.
 */
import { describe, expect, it } from 'vitest';
import { formatAlertBody, formatAlertKey, formatWatchEvent } from '../../src/cli/render/watch.js';
import type { WatchAlert } from '../../src/run/watch-alerts.js';

const AT = Date.UTC(2026, 10, 26, 18, 0, 0);
const firing: WatchAlert = {
  kind: 'audit-failed',
  status: 'firing',
  severity: 'critical',
  codes: ['PROOF_FIELD_MISMATCH'],
  pools: ['p-1'],
  evidence: 'p-1: PROOF_FIELD_MISMATCH: reserve_a differs',
  sinceMs: AT,
  atMs: AT,
};

describe('watch log lines', () => {
  it('json: one object per line, ts/level/event first, then the fields', () => {
    const line = formatWatchEvent({ level: 'info', event: 'snapshot', result: 'ok', pools: 8 }, 'json', AT);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.split('\n')).toHaveLength(2);
    expect(Object.keys(JSON.parse(line) as object)).toEqual(['ts', 'level', 'event', 'result', 'pools']);
    expect(JSON.parse(line)).toMatchObject({
      ts: '2026-11-26T18:00:00.000Z',
      level: 'info',
      event: 'snapshot',
    });
  });

  it('text: key=value, strings with spaces quoted, control characters escaped (one line)', () => {
    const line = formatWatchEvent(
      {
        level: 'warn',
        event: 'snapshot',
        result: 'failed',
        error: 'bad\u001b[31m answer\nforged line',
        codes: ['A', 'B'],
      },
      'text',
      AT,
    );
    expect(line.split('\n')).toHaveLength(2);
    expect(line).not.toContain('\u001b');
    expect(line).toMatch(
      /^2026-11-26T18:00:00.000Z warn snapshot result=failed error="bad\\u001b\[31m answer/,
    );
    expect(line).toContain('codes=A,B');
  });
});

describe('webhook bodies', () => {
  it('json: status, severity, codes, base_url and the rest', () => {
    const body = formatAlertBody(firing, 'json', 'https://exchange.example/v1/public');
    expect(body).toEqual({
      status: 'firing',
      severity: 'critical',
      alert: 'audit-failed',
      codes: ['PROOF_FIELD_MISMATCH'],
      pools: ['p-1'],
      evidence: 'p-1: PROOF_FIELD_MISMATCH: reserve_a differs',
      base_url: 'https://exchange.example/v1/public',
      since: '2026-11-26T18:00:00.000Z',
      at: '2026-11-26T18:00:00.000Z',
    });
  });

  it('slack: a text message (what an incoming webhook shows) plus the same fields', () => {
    const body = formatAlertBody(firing, 'slack', 'https://exchange.example/v1/public');
    expect(body.text).toBe(
      ':rotating_light: *FIRING* reserve audit FAILED (PROOF_FIELD_MISMATCH) — https://exchange.example/v1/public\npools: p-1\np-1: PROOF_FIELD_MISMATCH: reserve_a differs',
    );
    expect(body).toMatchObject({ status: 'firing', severity: 'critical', codes: ['PROOF_FIELD_MISMATCH'] });
    const resolved = formatAlertBody(
      { ...firing, status: 'resolved', evidence: '', pools: [] },
      'slack',
      'u',
    );
    expect(resolved.text).toBe(':white_check_mark: *RESOLVED* reserve audit passes again — u');
    const stale = formatAlertBody({ ...firing, kind: 'audit-stale', severity: 'warning' }, 'slack', 'u');
    expect(String(stale.text)).toMatch(/^:warning: \*FIRING\* reserve audit could not check for too long/);
  });

  it('the delivery key tells firing from resolved and one incident from the next', () => {
    expect(formatAlertKey(firing)).not.toBe(formatAlertKey({ ...firing, status: 'resolved' }));
    expect(formatAlertKey(firing)).not.toBe(formatAlertKey({ ...firing, sinceMs: AT + 1 }));
    expect(formatAlertKey(firing)).toBe(formatAlertKey({ ...firing, atMs: AT + 5000 }));
  });
});
