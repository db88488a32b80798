/**
 * The fault plan of the fault-injecting proxy (src/server/fault-proxy.ts): which transport faults
 * an unreliable network or gateway adds in front of an honest exchange, and how often. Written as
 * `KIND:SHARE[:PARAM]` items separated by commas, e.g. `429:0.25,503:0.15,reset:0.10`:
 *
 * | kind     | what the client sees                                              | PARAM (default)        |
 * |----------|-------------------------------------------------------------------|------------------------|
 * | 429      | `429 {"error":"rate limit exceeded"}` with `Retry-After`          | Retry-After, s (1)     |
 * | 500      | `500 {"error":"internal server error"}`                           | —                      |
 * | 502, 503 | the status with an HTML body, as a gateway sends it               | —                      |
 * | reset    | the connection closed without an answer                           | —                      |
 * | truncate | the real answer's headers and half its body, then the close       | —                      |
 * | delay    | the real answer, held back before it is sent                      | delay, ms (2000)       |
 *
 * Shares add up to at most 1; one draw per request picks at most one fault.
 */
import { UsageError } from '../errors/usage.js';

export type FaultKind = '429' | '500' | '502' | '503' | 'reset' | 'truncate' | 'delay';

export interface Fault {
  readonly kind: FaultKind;
  /** Retry-After seconds (429) or delay ms (delay); 0 for the others */
  readonly param: number;
}

export interface FaultRule extends Fault {
  /** share of requests, in (0, 1] */
  readonly share: number;
}

const KINDS: readonly FaultKind[] = ['429', '500', '502', '503', 'reset', 'truncate', 'delay'];
const DEFAULT_PARAM: Readonly<Record<FaultKind, number>> = {
  '429': 1,
  '500': 0,
  '502': 0,
  '503': 0,
  reset: 0,
  truncate: 0,
  delay: 2000,
};

function isFaultKind(s: string): s is FaultKind {
  return (KINDS as readonly string[]).includes(s);
}

/** Parses `429:0.25,503:0.15,reset:0.10`; throws UsageError OPTION_INVALID naming the bad item. */
export function parseFaultSpec(spec: string, option = 'faults'): FaultRule[] {
  const bad = (what: string, got: string): UsageError =>
    new UsageError('OPTION_INVALID', `"--${option}" expected ${what}, got ${JSON.stringify(got)}`);
  const rules: FaultRule[] = [];
  let total = 0;
  for (const item of spec.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    const [kind = '', share = '', param, ...rest] = item.split(':');
    if (!isFaultKind(kind)) throw bad(`a fault kind (${KINDS.join(', ')})`, item);
    if (rest.length > 0 || !/^(0|1|0?\.[0-9]+|1\.0*)$/.test(share))
      throw bad('KIND:SHARE[:PARAM] with SHARE in (0, 1]', item);
    const s = Number(share);
    if (s <= 0) throw bad('a share above 0', item);
    let p = DEFAULT_PARAM[kind];
    if (param !== undefined) {
      if ((kind !== '429' && kind !== 'delay') || !/^[0-9]{1,6}$/.test(param))
        throw bad(
          kind === '429' || kind === 'delay' ? 'a whole number as PARAM' : `no PARAM for ${kind}`,
          item,
        );
      p = Number(param);
    }
    total += s;
    rules.push({ kind, share: s, param: p });
  }
  if (rules.length === 0) throw bad('at least one KIND:SHARE item', spec);
  if (total > 1 + 1e-9) throw bad('shares that add up to at most 1', spec);
  return rules;
}

/** The fault a draw `u` in [0, 1) picks, or null for "no fault". */
export function pickFault(rules: readonly FaultRule[], u: number): Fault | null {
  let acc = 0;
  for (const r of rules) {
    acc += r.share;
    if (u < acc) return { kind: r.kind, param: r.param };
  }
  return null;
}

/** `429:0.25,503:0.15` back from the rules (for reports). */
export function formatFaultSpec(rules: readonly FaultRule[]): string {
  return rules
    .map((r) => `${r.kind}:${r.share}${r.param === DEFAULT_PARAM[r.kind] ? '' : `:${r.param}`}`)
    .join(',');
}
