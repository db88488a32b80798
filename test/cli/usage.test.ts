/**
 * Usage errors are typed (`UsageError`, codes USAGE_INVALID / OPTION_INVALID) and exit 2 with one
 * line; the shared option validators (src/cli/options.ts) give `"--x" expected …, got …`
 * messages; the one outcome → exit-code map (src/cli/exit-codes.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  EXIT_INTERNAL_ERROR,
  exitCodeOf,
  exitCodeOfError,
  exitCodeOfSnapshots,
  exitCodeOfVerification,
} from '../../src/cli/exit-codes.js';
import {
  HISTORY_DURATION,
  INTERVAL_DURATION,
  parseBaseUrlOption,
  parseDurationMs,
  parseDurationOption,
  parseIntegerOption,
  parseSingleFileOption,
  parseTimeOption,
  parseTimeoutOption,
  parseTypeSourceOptions,
} from '../../src/cli/options.js';
import { CodecError, isReserveAuditError, UsageError } from '../../src/errors/index.js';
import { runCliForTest } from '../helpers/run-cli.js';

function usageErrorOf(f: () => unknown): UsageError {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('expected a UsageError');
}

describe('usage errors exit 2 with one typed line', () => {
  it.each([
    [['no-such-command'], /^reserve-audit: USAGE_INVALID: Unknown argument: no-such-command\n$/],
    [[], /^reserve-audit: USAGE_INVALID: name a command \(see --help\)\n$/],
    [['decode', 'AAAA', '--no-such-option'], /^reserve-audit: USAGE_INVALID: Unknown argument/],
    [
      ['verify-contract', '--blob', 'AAAA'],
      /^reserve-audit: OPTION_INVALID: "--contract-id" expected \(or --batch <file>\), got nothing\n$/,
    ],
    [
      ['audit', '--base-url', 'http://127.0.0.1:1/v1/public', '--timeout', '0'],
      /^reserve-audit: OPTION_INVALID: "--timeout" expected an integer 1\.\.600000 \(ms\), got 0\n$/,
    ],
    [
      ['snapshot', '--base-url', 'http://127.0.0.1:1/v1/public', '--mirror', 'm.db', '--timeout', '700000'],
      /^reserve-audit: OPTION_INVALID: "--timeout" expected an integer 1\.\.600000 \(ms\), got 700000\n$/,
    ],
    [
      ['snapshot', '--base-url', 'http://127.0.0.1:1/v1/public', '--mirror', 'm.db', '--timeout', 'soon'],
      /"--timeout" expected an integer 1\.\.600000 \(ms\), got NaN\n$/,
    ],
    [
      ['audit', '--base-url', 'ftp://example.org/v1/public'],
      /^reserve-audit: OPTION_INVALID: "--base-url" expected an absolute http\(s\) URL, got "ftp:\/\/…"\n$/,
    ],
    [
      ['snapshot', '--base-url', 'http://127.0.0.1:1/', '--mirror', 'm.db', '--every', '30d'],
      /"--every" expected a duration of 1ms to 24d, got "30d"\n$/,
    ],
    // a negative value is the option's value, not short flags ("Unknown arguments: 1, s")
    [
      ['snapshot', '--base-url', 'http://127.0.0.1:1/', '--mirror', 'm.db', '--every', '-1s'],
      /^reserve-audit: OPTION_INVALID: "--every" expected a duration like 30s or 5m, got "-1s"\n$/,
    ],
    // polite on the wire: below 1s only against this machine
    [
      ['snapshot', '--base-url', 'https://exchange.example/v1/public', '--mirror', 'm.db', '--every', '10ms'],
      /"--every" expected at least 1s against an exchange that is not on this machine .*got 10ms\n$/,
    ],
    [['replay', '--mirror', 'm.db', '--from', 'yesterday'], /"--from" expected an ISO 8601 timestamp/],
    [
      ['replay', '--mirror', 'm.db', '--from', '2026-01-02T00:00:00Z', '--to', '2026-01-01T00:00:00Z'],
      /"--from" expected a time before --to, got "2026-01-02T00:00:00Z" ≥ "2026-01-01T00:00:00Z"/,
    ],
    [['demo', '--snapshots', '0'], /"--snapshots" expected an integer 1\.\.50, got 0\n$/],
    [['types', '--dar', 'a.dar', '--dar', 'b.dar', '--template', 'M:T'], /"--dar" expected exactly one file/],
  ])('%j', async (argv, message) => {
    const r = await runCliForTest(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('UsageError', () => {
  it('is a ReserveAuditError with a stable code', () => {
    const e = usageErrorOf(() => parseTimeoutOption(0));
    expect(isReserveAuditError(e)).toBe(true);
    expect(e.code).toBe('OPTION_INVALID');
    expect(e.shortMessage).toBe('"--timeout" expected an integer 1..600000 (ms), got 0');
    expect(e.details).toEqual({ option: 'timeout' });
  });
});

describe('shared option validators', () => {
  it('--timeout: an integer 1..600000', () => {
    expect(parseTimeoutOption(1)).toBe(1);
    expect(parseTimeoutOption(600_000)).toBe(600_000);
    for (const bad of [0, -1, 1.5, 600_001, Number.NaN])
      expect(() => parseTimeoutOption(bad)).toThrow(UsageError);
  });
  it('integers: a positive integer when unbounded', () => {
    expect(usageErrorOf(() => parseIntegerOption('count', 0, { min: 1 })).shortMessage).toBe(
      '"--count" expected a positive integer, got 0',
    );
  });
  it('--base-url: absolute http(s) only; credentials never echoed', () => {
    expect(parseBaseUrlOption('https://x.example/v1/public')).toEqual({
      request: 'https://x.example/v1/public',
      display: 'https://x.example/v1/public',
    });
    // parsed once: requests use the URL as given, everything shown or stored the redacted form
    expect(parseBaseUrlOption('https://u:secret@x.example/v1/public?token=t')).toEqual({
      request: 'https://u:secret@x.example/v1/public?token=t',
      display: 'https://x.example/v1/public?token=***',
    });
    expect(usageErrorOf(() => parseBaseUrlOption('u:secret@x exa')).shortMessage).not.toContain('secret');
    expect(usageErrorOf(() => parseBaseUrlOption('x.example')).shortMessage).toBe(
      '"--base-url" expected an absolute http(s) URL, got "x.example"',
    );
    expect(usageErrorOf(() => parseBaseUrlOption('ftp://user:secret@x/')).shortMessage).not.toContain(
      'secret',
    );
  });
  it('--types/--dar: lists of non-empty paths', () => {
    expect(parseTypeSourceOptions({ types: ['a.json'], dar: undefined })).toEqual({
      typeFiles: ['a.json'],
      dars: [],
    });
    expect(() => parseTypeSourceOptions({ types: [''] })).toThrow('"--types" expected a file path');
    expect(parseSingleFileOption('dar', ['x.dar'])).toBe('x.dar');
  });
  it('--from/--to: ISO 8601 with offset → ms', () => {
    expect(parseTimeOption('from', undefined)).toBeUndefined();
    expect(parseTimeOption('from', '2026-11-22T03:00:00Z')).toBe(Date.UTC(2026, 10, 22, 3));
    expect(() => parseTimeOption('to', '2026-13-01T00:00:00Z')).toThrow(UsageError);
  });
  it('durations: one grammar, a rule per option', () => {
    // serve --history: a unit is required except for 0; at most 365 days
    expect(parseDurationMs('7d', HISTORY_DURATION)).toBe(604_800_000);
    expect(parseDurationMs('0', HISTORY_DURATION)).toBe(0);
    expect(parseDurationMs('7', HISTORY_DURATION)).toBeNull();
    expect(parseDurationMs('366d', HISTORY_DURATION)).toBeNull();
    // snapshot --every: a bare number is seconds; > 0; within what setTimeout honours
    expect(parseDurationMs('2', INTERVAL_DURATION)).toBe(2_000);
    expect(parseDurationMs('500ms', INTERVAL_DURATION)).toBe(500);
    expect(parseDurationMs('0', INTERVAL_DURATION)).toBeNull();
    expect(parseDurationMs('25d', INTERVAL_DURATION)).toBeNull();
    expect(() => parseDurationOption('every', 'soon', INTERVAL_DURATION)).toThrow(
      '"--every" expected a duration like 30s or 5m, got "soon"',
    );
  });
});

describe('the one outcome → exit-code map', () => {
  it('maps outcomes, verification statuses, snapshots and errors', () => {
    expect((['passed', 'failed', 'could-not-check'] as const).map((o) => exitCodeOf(o))).toEqual([0, 1, 2]);
    expect(
      (['verified', 'mismatch', 'could-not-check'] as const).map((s) => exitCodeOfVerification(s)),
    ).toEqual([0, 1, 2]);
    expect([exitCodeOfSnapshots(true), exitCodeOfSnapshots(false)]).toEqual([0, 2]);
    expect(exitCodeOfError(new CodecError('BLOB_TRUNCATED', 'x'))).toBe(2);
    expect(exitCodeOfError(new UsageError('USAGE_INVALID', 'x'))).toBe(2);
    expect(exitCodeOfError(new TypeError('x'))).toBe(EXIT_INTERNAL_ERROR);
  });
});
