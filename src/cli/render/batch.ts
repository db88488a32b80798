/**
 * Output of `verify-contract --batch` (docs/cli.md): one line per contract — `<where>: verified: <id>
 * (v12)`, `<where>: MISMATCH: <id> … CODE: message`, `<where>: could not check: <id> … CODE: message`
 * — or one JSON object per line with `--json`, and a summary line.
 */
import { formatDisplayText } from '../../core/wire/display-text.js';
import type { BatchVerdict } from '../../run/verify-batch.js';
import { formatReasonsText } from './verification.js';

/** Counts of a batch's verdicts, by status. */
export interface BatchCounts {
  verified: number;
  mismatch: number;
  couldNotCheck: number;
}

/** a contract ID is 138 hex chars; a hostile one is cut */
const MAX_ID_CHARS = 160;

const STATUS_WORD = {
  verified: 'verified',
  mismatch: 'MISMATCH',
  'could-not-check': 'could not check',
} as const;

/** Where a verdict's contract was found: `line 3`, `line 3 $.data.pools[0]…`, or the path. */
function formatWhere(v: BatchVerdict): string {
  if (v.line === null) return v.path;
  return v.path === '$' ? `line ${v.line}` : `line ${v.line} ${v.path}`;
}

/** One human line for one verdict (hostile text made printable). */
export function formatBatchVerdictLine(v: BatchVerdict): string {
  const cid = v.contractId;
  const id =
    cid === null
      ? '(no contract id)'
      : formatDisplayText(
          cid.length > MAX_ID_CHARS ? `${cid.slice(0, MAX_ID_CHARS)}…(${cid.length} chars)` : cid,
        );
  const version = v.version === null ? '' : ` (${v.version})`;
  const template = v.template === null ? '' : ` ${formatDisplayText(v.template)}`;
  const reasons = formatDisplayText(formatReasonsText(v.reasons));
  return `${formatDisplayText(formatWhere(v))}: ${STATUS_WORD[v.status]}: ${id}${version}${template}${reasons === '' ? '' : ` ${reasons}`}`;
}

/** The JSON object of one verdict (stable field names). */
export function formatBatchVerdictJson(v: BatchVerdict): Record<string, unknown> {
  return {
    index: v.index,
    line: v.line,
    path: v.path,
    contractId: v.contractId,
    status: v.status,
    ok: v.status === 'verified',
    version: v.version,
    template: v.template,
    reasons: v.reasons.map(({ code, message }) => ({ code, message })),
  };
}

/** `3524 contracts: 3520 verified, 3 MISMATCH, 1 could not check (0.61 s, 5,777/s)` */
export function formatBatchSummary(c: BatchCounts, seconds: number): string {
  const total = c.verified + c.mismatch + c.couldNotCheck;
  const rate = seconds > 0 ? `, ${Math.round(total / seconds).toLocaleString('en-US')}/s` : '';
  return `${total} contract${total === 1 ? '' : 's'}: ${c.verified} verified, ${c.mismatch} MISMATCH, ${c.couldNotCheck} could not check (${seconds.toFixed(2)} s${rate})`;
}
