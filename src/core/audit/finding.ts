/**
 * Audit findings and the list of checks performed (the issue "reserve-audit audit"; docs/architecture.md
 * "Code style": findings are data). A finding is data: a stable code from
 * finding-codes.ts, a severity, the pool it concerns, the area, whether the statement is proven
 * (from a verified contract), merely asserted by the exchange, or could not be checked, and the
 * evidence (`expected` vs `got`, plus context).
 *
 * Exit-code rule (computeAuditOutcome): any failed check → 'failed' (exit 1); else any check that
 * could not be performed although requested → 'could-not-check' (exit 2); else 'passed' (exit 0).
 * Skipped checks (not requested: no mirror, no --probe-quotes) never influence the outcome.
 */
import { FINDING_CODES, type FindingCode } from './finding-codes.js';
import type { AuditArea, FindingLabel, Severity } from './finding-kinds.js';

export type { AuditArea, FindingLabel, Severity } from './finding-kinds.js';

export interface Evidence {
  readonly expected?: unknown;
  readonly got?: unknown;
  readonly [key: string]: unknown;
}

export interface Finding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly pool: string | null;
  readonly area: AuditArea;
  readonly label: FindingLabel;
  readonly message: string;
  readonly evidence: Evidence;
}

export type CheckStatus = 'pass' | 'fail' | 'could-not-check' | 'skipped';

/** One check performed (one JUnit testcase): `name` is stable, e.g. "proof.contract-id". */
export interface CheckOutcome {
  readonly name: string;
  readonly area: AuditArea;
  readonly pool: string | null;
  readonly status: CheckStatus;
  /** finding codes raised by this check */
  readonly codes: readonly FindingCode[];
  /** why the check was skipped or could not be performed */
  readonly note: string | null;
}

export type AuditOutcome = 'passed' | 'failed' | 'could-not-check';

/** Builds a finding whose severity, area and default label come from the catalogue. */
export function makeFinding(
  code: FindingCode,
  pool: string | null,
  message: string,
  evidence: Evidence = {},
  overrides: { readonly severity?: Severity; readonly label?: FindingLabel } = {},
): Finding {
  const def = FINDING_CODES[code];
  return {
    code,
    severity: overrides.severity ?? def.severity,
    pool,
    area: def.area,
    label: overrides.label ?? def.label,
    message,
    evidence,
  };
}

/**
 * Collects findings and check outcomes while the checks run. A check's status follows from the
 * findings it raised: an error → fail; a could-not-check finding → could-not-check; else pass.
 */
export class AuditCollector {
  readonly findings: Finding[] = [];
  readonly checks: CheckOutcome[] = [];

  /** Records one performed check and its findings; returns the status. */
  record(area: AuditArea, name: string, pool: string | null, findings: readonly Finding[]): CheckStatus {
    let status: CheckStatus = 'pass';
    for (const f of findings) {
      if (f.severity === 'error') status = 'fail';
      else if (f.label === 'could-not-check' && status !== 'fail') status = 'could-not-check';
    }
    this.findings.push(...findings);
    this.checks.push({ name, area, pool, status, codes: findings.map((f) => f.code), note: null });
    return status;
  }

  /** Records a check that could not run at all (its inputs are missing), with a finding. */
  couldNotCheck(area: AuditArea, name: string, pool: string | null, finding: Finding): void {
    this.findings.push(finding);
    this.checks.push({
      name,
      area,
      pool,
      status: 'could-not-check',
      codes: [finding.code],
      note: finding.message,
    });
  }

  /**
   * Records a check that was performed but is inconclusive for a reason that must not change the
   * exit code (cached market data older than every known state): status skipped, note = the
   * finding's message, and the finding is listed.
   */
  skipWithFinding(area: AuditArea, name: string, pool: string | null, finding: Finding): void {
    this.findings.push(finding);
    this.checks.push({ name, area, pool, status: 'skipped', codes: [finding.code], note: finding.message });
  }

  /** Records a check that was not requested (no mirror, no --probe-quotes). */
  skip(area: AuditArea, name: string, pool: string | null, note: string): void {
    this.checks.push({ name, area, pool, status: 'skipped', codes: [], note });
  }
}

/** The overall outcome of a list of checks (see the module comment). */
export function computeAuditOutcome(checks: readonly CheckOutcome[]): AuditOutcome {
  if (checks.some((c) => c.status === 'fail')) return 'failed';
  if (checks.some((c) => c.status === 'could-not-check')) return 'could-not-check';
  return 'passed';
}
