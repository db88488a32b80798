/**
 * The options several commands share, declared once (yargs option objects, `as const` so the
 * argument types are inferred) and validated once: each `parse*Option` turns the parsed value
 * into what the pipeline needs or throws a `UsageError` ('OPTION_INVALID', exit 2) whose message
 * names the option, the rule and the value: `"--timeout" expected an integer 1..600000 (ms), got 0`.
 * Command-specific options stay in their command; their ranges use the generic validators here.
 */
import { resolve } from 'node:path';
import type { Options } from 'yargs';
import { parseQualifiedName } from '../core/types/type-env.js';
import { parseTimestampMicros } from '../core/wire/timestamp.js';
import { formatGot } from '../errors/base.js';
import { UsageError } from '../errors/usage.js';
import { type BaseUrl, parseBaseUrl } from '../io/http/base-url.js';
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_RPS } from '../io/http/pacer.js';
import { redactUrl } from '../io/http/redact-url.js';
import { isPostgresTarget, MIRROR_ENV, resolveMirrorTarget } from '../io/store/mirror-target.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../run/retention-policy.js';

// ---------------------------------------------------------------------------------------------
// declarations

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_TIMEOUT_MS = 600_000;

/** --base-url (audit, snapshot) */
export const baseUrlOption = {
  type: 'string',
  demandOption: true,
  describe: 'public API base URL, e.g. http://127.0.0.1:8080/v1/public',
} as const satisfies Options;

/** --timeout (audit, snapshot) */
export const timeoutOption = {
  type: 'number',
  default: DEFAULT_TIMEOUT_MS,
  describe: `each request's budget in ms, its retries and their waits included (1..${MAX_TIMEOUT_MS})`,
} as const satisfies Options;

const MAX_RPS_LIMIT = 1_000;
const MAX_IN_FLIGHT_LIMIT = 64;

/** --mirror when the command needs one (snapshot, replay, history, report, mirror); see parseMirrorOption */
export const mirrorOption = {
  type: 'string',
  describe:
    'the mirror: a SQLite file, or a postgres://user@host:port/db URL (default: $RESERVE_AUDIT_MIRROR)',
} as const satisfies Options;

/**
 * The mirror a command uses: --mirror, else $RESERVE_AUDIT_MIRROR; a file path resolved against
 * the working directory, a postgres:// or postgresql:// URL as given (its password is never printed).
 */
export function parseMirrorOption(
  value: string | undefined,
  ctx: { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> },
): string {
  const v = value ?? ctx.env[MIRROR_ENV];
  if (v === undefined) failOptionText('mirror', `a file or a postgres:// URL (or $${MIRROR_ENV})`, 'nothing');
  if (isPostgresTarget(v)) {
    if (!URL.canParse(v.trim()))
      failOption('mirror', 'a postgres://user@host:port/database URL', redactUrl(v));
    return v.trim();
  }
  return resolveMirrorTarget(parsePathOption('mirror', v), ctx.cwd);
}

/** --mirror of the commands that record snapshots into it (snapshot, watch) */
export const recordingMirrorOption = {
  ...mirrorOption,
  describe:
    'the mirror: a SQLite file (created if missing) or a postgres:// URL (default: $RESERVE_AUDIT_MIRROR)',
} as const satisfies Options;

/** --contract-id-version (serve, demo) */
export const contractIdVersionOption = {
  type: 'string',
  choices: ['v10', 'v11', 'v12'] as const,
  default: 'v12',
  describe: 'contract ID version of minted reserve contracts',
} as const satisfies Options;

/** --json (audit, replay, verify-contract, inspect-dar, demo); `describe` says what is printed */
export function jsonOption(describe: string): { type: 'boolean'; default: false; describe: string } {
  return { type: 'boolean', default: false, describe };
}

// ---------------------------------------------------------------------------------------------
// validators

/** An option value for a message: numbers as typed (NaN for a non-number), strings quoted. */
function formatValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : formatGot(value);
}

/** Throws the usage error of one option: `"--<name>" expected <rule>, got <gotText>` (as written). */
export function failOptionText(name: string, rule: string, gotText: string, cause?: unknown): never {
  throw new UsageError('OPTION_INVALID', `"--${name}" expected ${rule}, got ${gotText}`, {
    details: { option: name },
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Throws the usage error of one option: `"--<name>" expected <rule>, got <value>` (the value formatted). */
export function failOption(name: string, rule: string, value: unknown): never {
  return failOptionText(name, rule, formatValue(value));
}

export interface NumberRange {
  readonly min: number;
  /** inclusive; none = no upper bound */
  readonly max?: number;
  /** the unit named in the message, e.g. 'ms' */
  readonly unit?: string;
}

function formatRange(kind: 'an integer' | 'a number', range: NumberRange): string {
  const unit = range.unit === undefined ? '' : ` (${range.unit})`;
  if (range.max !== undefined) return `${kind} ${range.min}..${range.max}${unit}`;
  if (kind === 'an integer' && range.min === 1) return `a positive integer${unit}`;
  return `${kind} ≥ ${range.min}${unit}`;
}

/** An integer within [min, max]. */
export function parseIntegerOption(name: string, value: number, range: NumberRange): number {
  if (!Number.isSafeInteger(value) || value < range.min || (range.max !== undefined && value > range.max))
    failOption(name, formatRange('an integer', range), value);
  return value;
}

/** A finite number within [min, max]. */
export function parseNumberOption(name: string, value: number, range: NumberRange): number {
  if (!Number.isFinite(value) || value < range.min || (range.max !== undefined && value > range.max))
    failOption(name, formatRange('a number', range), value);
  return value;
}

/** A finite number > 0 (and ≤ max). */
export function parsePositiveNumberOption(name: string, value: number, max?: number): number {
  if (!Number.isFinite(value) || value <= 0 || (max !== undefined && value > max))
    failOption(name, max === undefined ? 'a positive number' : `a number in (0, ${max}]`, value);
  return value;
}

/** --timeout: an integer 1..600000 ms (the stricter of the two rules the commands once had). */
export function parseTimeoutOption(value: number): number {
  return parseIntegerOption('timeout', value, { min: 1, max: MAX_TIMEOUT_MS, unit: 'ms' });
}

/**
 * --base-url: an absolute http(s) URL, parsed once into the URL requests go to and the redacted
 * form that is printed, reported and stored (credentials never echoed back, not even in errors).
 */
export function parseBaseUrlOption(value: string): BaseUrl {
  const notHttp = describeNonHttpUrl(value);
  if (notHttp !== null) failOption('base-url', 'an absolute http(s) URL', notHttp);
  return parseBaseUrl(value);
}

/**
 * null for an absolute http(s) URL; otherwise how to show what was given without echoing
 * credentials: the redacted text when it is no URL, only the scheme (`ftp://…`) when it is one.
 */
export function describeNonHttpUrl(value: string): string | null {
  if (!URL.canParse(value)) return redactUrl(value);
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:' ? null : `${protocol}//…`;
}

/** A file path option (--mirror, --profile, --html, …): a non-empty string. */
export function parsePathOption(name: string, value: string): string {
  if (value.trim() === '') failOption(name, 'a file path', value);
  return value;
}

/** A required file path option resolved against the working directory. */
export function resolvePathOption(name: string, value: string, cwd: string): string {
  return resolve(cwd, parsePathOption(name, value));
}

/** An optional file path (--profile, audit's --mirror): null when not given. */
function parseOptionalPathOption(name: string, value: string | undefined): string | null {
  return value === undefined ? null : parsePathOption(name, value);
}

/** Type sources for V12 contract IDs: --types and --dar, each a list of non-empty paths. */
export interface TypeSourceOptions {
  readonly typeFiles: readonly string[];
  readonly dars: readonly string[];
}

export function parseTypeSourceOptions(args: {
  readonly types?: readonly string[] | undefined;
  readonly dar?: readonly string[] | undefined;
}): TypeSourceOptions {
  const list = (name: string, v: readonly string[] | undefined): string[] =>
    (v ?? []).map((p) => parsePathOption(name, String(p)));
  return { typeFiles: list('types', args.types), dars: list('dar', args.dar) };
}

/** A file option that must be given exactly once (e.g. `types --dar`). */
export function parseSingleFileOption(name: string, value: readonly string[]): string {
  if (value.length !== 1) failOption(name, 'exactly one file', value);
  return parsePathOption(name, String(value[0]));
}

/** --from/--to: an ISO 8601 timestamp with offset → epoch ms; undefined when not given. */
export function parseTimeOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const micros = parseTimestampMicros(value);
  if (micros === null)
    failOption(name, 'an ISO 8601 timestamp with offset (e.g. 2026-11-22T03:00:00Z)', value);
  return Number(micros / 1000n);
}

/** --template (inspect-dar, types): `Module:Entity` or `<packageId>:Module:Entity`. */
export interface TemplateOption {
  readonly packageId: string | null;
  readonly module: string[];
  readonly entity: string[];
}

export function parseTemplateOption(value: string): TemplateOption {
  const m = /^([0-9a-f]{64}):(.*)$/.exec(value);
  const q = parseQualifiedName(m === null ? value : m[2]!);
  if (q === undefined) return failOption('template', 'Module.Sub:Entity', value);
  return { packageId: m === null ? null : m[1]!, module: [...q.module], entity: [...q.entity] };
}

// ---------------------------------------------------------------------------------------------
// durations: one grammar, `<number>[ms|s|m|h|d]`, with a rule per option

export interface DurationRule {
  /** the unit of a bare number; null = a unit is required (except for 0) */
  readonly bareUnit: 's' | null;
  readonly minMs: number;
  readonly maxMs: number;
  /** the accepted form, for messages: "30s or 5m" */
  readonly example: string;
  /** the range, for messages: "at most 365d" */
  readonly bounds: string;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const DURATION = /^([0-9]{1,9}(?:\.[0-9]{1,6})?)(ms|s|m|h|d)?$/;

/** The longest wait setTimeout honours (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/** serve --history: 7d, 12h, 30m, 90s, or 0; at most 365 days; a unit is required. */
export const HISTORY_DURATION: DurationRule = {
  bareUnit: null,
  minMs: 0,
  maxMs: 365 * 86_400_000,
  example: '7d, 12h or 30m',
  bounds: 'at most 365d',
};

/** mirror prune --keep-raw: 7d, 12h, 30m, or 0 (keep none); at most 10 years; a unit is required. */
export const RETENTION_DURATION: DurationRule = {
  bareUnit: null,
  minMs: 0,
  maxMs: 3650 * 86_400_000,
  example: '7d, 12h or 30m',
  bounds: 'at most 3650d',
};

/** mirror prune --archive: 30d, 12h; at least 1 hour (well past the audit's market horizon), at most 10 years. */
export const ARCHIVE_DURATION: DurationRule = {
  bareUnit: null,
  minMs: 3_600_000,
  maxMs: 3650 * 86_400_000,
  example: '30d or 12h',
  bounds: 'of 1h to 3650d',
};

/** The retention policy of a long-running command (docs/mirror.md "Retention"); null with --no-retention. */
export function parseRetentionOptions(
  args: {
    readonly 'keep-raw'?: string | undefined;
    readonly 'archive-after'?: string | undefined;
    readonly retention: boolean;
  },
  mirrorTarget: string,
): RetentionPolicy | null {
  // archiving is SQLite's: by default a PostgreSQL mirror only prunes, asked for it is a usage error
  if (args['archive-after'] !== undefined && isPostgresTarget(mirrorTarget))
    failOptionText('archive-after', 'an SQLite mirror', 'a PostgreSQL URL (PostgreSQL keeps every row)');
  if (!args.retention) {
    for (const name of ['keep-raw', 'archive-after'] as const)
      if (args[name] !== undefined) failOptionText(name, 'without --no-retention', 'both');
    return null;
  }
  const keep = args['keep-raw'];
  const archive = args['archive-after'];
  return {
    keepRawMs:
      keep === undefined
        ? DEFAULT_RETENTION.keepRawMs
        : parseDurationOption('keep-raw', keep, RETENTION_DURATION),
    archiveAfterMs:
      archive === undefined
        ? DEFAULT_RETENTION.archiveAfterMs
        : parseDurationOption('archive-after', archive, ARCHIVE_DURATION),
  };
}

/** snapshot --every: 500ms, 30s, 1.5m, 1h (a bare number is seconds); > 0 and a valid timer. */
export const INTERVAL_DURATION: DurationRule = {
  bareUnit: 's',
  minMs: 1,
  maxMs: MAX_TIMER_MS,
  example: '30s or 5m',
  bounds: 'of 1ms to 24d',
};

/** The grammar alone: `<number>[ms|s|m|h|d]` → ms, or null when malformed. */
function parseDurationText(text: string, bareUnit: 's' | null): number | null {
  const m = DURATION.exec(text.trim());
  if (m === null) return null;
  const n = Number(m[1]);
  const factor = UNIT_MS[m[2] ?? bareUnit ?? (n === 0 ? 's' : '')];
  if (factor === undefined) return null;
  const ms = Math.round(n * factor);
  return Number.isSafeInteger(ms) ? ms : null;
}

/** Parses a duration under a rule → ms; null when malformed or out of the rule's range. */
export function parseDurationMs(text: string, rule: DurationRule): number | null {
  const ms = parseDurationText(text, rule.bareUnit);
  return ms !== null && ms >= rule.minMs && ms <= rule.maxMs ? ms : null;
}

/** A duration option under a rule → ms; a usage error names the form or the range it broke. */
export function parseDurationOption(name: string, value: string, rule: DurationRule): number {
  const ms = parseDurationText(value, rule.bareUnit);
  if (ms === null) return failOption(name, `a duration like ${rule.example}`, value);
  if (ms < rule.minMs || ms > rule.maxMs) failOption(name, `a duration ${rule.bounds}`, value);
  return ms;
}

/** An interval option (snapshot/watch/mirror follow --every, watch --audit-every, replay --lease, …) → ms; undefined when not given. */
export function parseIntervalOption(name: string, value: string): number;
export function parseIntervalOption(name: string, value: string | undefined): number | undefined;
export function parseIntervalOption(name: string, value: string | undefined): number | undefined {
  return value === undefined ? undefined : parseDurationOption(name, value, INTERVAL_DURATION);
}

/** The URL's host is this machine (localhost, 127.0.0.0/8, ::1): `--every` below 1s is allowed only there. */
function isLoopbackUrl(url: string): boolean {
  const h = new URL(url).hostname;
  return h === 'localhost' || h === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The shortest snapshot interval against an exchange that is not on this machine. */
const MIN_REMOTE_INTERVAL_MS = 1000;

/**
 * Polite on the wire (snapshot --every, watch --every/--audit-every): a snapshot is a dozen requests
 * or more, so an interval below a second is a usage error unless the exchange is on this machine.
 * `intervals`: the options checked, each with its value in ms and as given.
 */
export function assertRemoteIntervals(
  baseUrl: BaseUrl,
  intervals: readonly { readonly name: string; readonly ms: number; readonly text: string }[],
): void {
  if (isLoopbackUrl(baseUrl.request) || intervals.every((i) => i.ms >= MIN_REMOTE_INTERVAL_MS)) return;
  throw new UsageError(
    'OPTION_INVALID',
    `${intervals.map((i) => `"--${i.name}"`).join(' and ')} expected at least 1s against an exchange that is not on this machine (below 1s only for a loopback --base-url), got ${intervals.map((i) => i.text).join(' and ')}`,
  );
}

/**
 * The options of the commands that fetch a snapshot (audit, snapshot, watch), for yargs' `options()`:
 * the request budget, the pacing (src/io/http/pacer.ts) and probe quotes; parseSnapshotFetchOptions
 * validates them.
 */
export const snapshotFetchOptions = {
  timeout: timeoutOption,
  'max-rps': {
    type: 'number',
    default: DEFAULT_MAX_RPS,
    describe: `requests per second at most, retries included; halved on each 429 (1..${MAX_RPS_LIMIT})`,
  },
  'max-in-flight': {
    type: 'number',
    default: DEFAULT_MAX_IN_FLIGHT,
    describe: `requests in flight at most (1..${MAX_IN_FLIGHT_LIMIT})`,
  },
  'probe-quotes': {
    type: 'boolean',
    default: false,
    describe: 'also send probe quotes to POST /connect/quote and check them',
  },
} as const satisfies Record<string, Options>;

/** What snapshotFetchOptions declared, validated. */
export function parseSnapshotFetchOptions(args: {
  readonly timeout: number;
  readonly 'max-rps': number;
  readonly 'max-in-flight': number;
}): {
  readonly timeoutMs: number;
  readonly pacing: { readonly maxRps: number; readonly maxInFlight: number };
} {
  return {
    timeoutMs: parseTimeoutOption(args.timeout),
    pacing: {
      maxRps: parseIntegerOption('max-rps', args['max-rps'], { min: 1, max: MAX_RPS_LIMIT }),
      maxInFlight: parseIntegerOption('max-in-flight', args['max-in-flight'], {
        min: 1,
        max: MAX_IN_FLIGHT_LIMIT,
      }),
    },
  };
}

/** --types and --dar (snapshot, verify-contract), for yargs' `options()`; see parseTypeSourceOptions. */
export const typeSourceOptions = {
  types: {
    type: 'string',
    array: true,
    describe: 'JSON type file with the Daml types for V12 contract IDs (repeatable; docs/type-file.md)',
  },
  dar: {
    type: 'string',
    array: true,
    describe: 'DAR or DALF with the Daml types for V12 contract IDs (repeatable)',
  },
} as const satisfies Record<string, Options>;

/**
 * What checking a proof reads from files (audit, watch, replay, mirror follow), for yargs'
 * `options()`: the reserve profile and the Daml types; parseProofSourceOptions validates them.
 */
export const proofSourceOptions = {
  profile: {
    type: 'string',
    describe: 'reserve profile JSON (default: the bundled server template)',
  },
  ...typeSourceOptions,
} as const satisfies Record<string, Options>;

/** What proofSourceOptions declared: the profile path (null: the bundled one) and the type sources. */
export function parseProofSourceOptions(args: {
  readonly profile?: string | undefined;
  readonly types?: readonly string[] | undefined;
  readonly dar?: readonly string[] | undefined;
}): TypeSourceOptions & { readonly profilePath: string | null } {
  return { profilePath: parseOptionalPathOption('profile', args.profile), ...parseTypeSourceOptions(args) };
}

/** The retention options of the long-running commands (snapshot --every, watch), for yargs' `options()`. */
export const retentionOptions = {
  'keep-raw': {
    type: 'string',
    describe: 'retention: keep the raw responses of the last <duration> (default 7d; 0 keeps none)',
  },
  'archive-after': {
    type: 'string',
    describe:
      'retention: archive contracts and observations older than <duration> into compressed chunks (default 30d; SQLite mirrors)',
  },
  retention: {
    type: 'boolean',
    default: true,
    describe: 'apply the retention policy while running (--no-retention keeps every row and response)',
  },
} as const satisfies Record<string, Options>;
