/**
 * The small vocabularies a finding is classified by (docs/architecture.md "Code style": findings are
 * data): severity, provenance label and audit area. Shared by the finding catalogue
 * (finding-codes.ts) and the findings themselves (finding.ts), which both import it.
 */

export type Severity = 'error' | 'warning' | 'info';

/**
 * `proven`: the discrepancy is proven against the exchange's own blob, whose ID recomputed (or, for the
 * ledger checks, against the participant read); `asserted`: only the exchange's word; `could-not-check`.
 */
export type FindingLabel = 'proven' | 'asserted' | 'could-not-check';

/** The audit areas, in report order. */
export const AUDIT_AREAS = [
  'fetch',
  'proof',
  'ledger',
  'state',
  'history',
  'market',
  'quote',
  'volume',
  'tokens',
] as const;

export type AuditArea = (typeof AUDIT_AREAS)[number];
