/**
 * How a run's findings and checks are counted — one definition for the JSON summary
 * (`summary.checks`, `summary.findings`), the text verdict line and the HTML report's tiles, so the
 * numbers a reader compares across them are computed once.
 */
import type { CheckOutcome, Finding } from './finding.js';

export interface CheckCounts {
  readonly pass: number;
  readonly fail: number;
  readonly couldNotCheck: number;
  readonly skipped: number;
}

export interface FindingCounts {
  readonly error: number;
  readonly warning: number;
  readonly info: number;
}

/** Error and warning findings by label: proven (cryptographic evidence) vs asserted (the API's word). */
export interface LabelCounts {
  readonly proven: number;
  readonly asserted: number;
  readonly couldNotCheck: number;
}

/** Checks by status. */
export function computeCheckCounts(checks: readonly CheckOutcome[]): CheckCounts {
  let pass = 0;
  let fail = 0;
  let couldNotCheck = 0;
  let skipped = 0;
  for (const c of checks) {
    if (c.status === 'pass') pass++;
    else if (c.status === 'fail') fail++;
    else if (c.status === 'could-not-check') couldNotCheck++;
    else skipped++;
  }
  return { pass, fail, couldNotCheck, skipped };
}

/** Findings by severity; with `pool`, only the findings about that pool. */
export function computeFindingCounts(findings: readonly Finding[], pool?: string): FindingCounts {
  let error = 0;
  let warning = 0;
  let info = 0;
  for (const f of findings) {
    if (pool !== undefined && f.pool !== pool) continue;
    if (f.severity === 'error') error++;
    else if (f.severity === 'warning') warning++;
    else info++;
  }
  return { error, warning, info };
}

/** Error and warning findings (info excluded) by label. */
export function computeLabelCounts(findings: readonly Finding[]): LabelCounts {
  let proven = 0;
  let asserted = 0;
  let couldNotCheck = 0;
  for (const f of findings) {
    if (f.severity === 'info') continue;
    if (f.label === 'proven') proven++;
    else if (f.label === 'asserted') asserted++;
    else couldNotCheck++;
  }
  return { proven, asserted, couldNotCheck };
}
