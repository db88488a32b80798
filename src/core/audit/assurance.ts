/**
 * Assurance levels (issue 26 item 1; docs/findings.md "Assurance levels"): how far a pool's reserves
 * were established, from the strongest down, and what each does *not* prove.
 *
 * - `ledger-confirmed`: the contract ID recomputes from the blob, and a participant the auditor
 *   trusts reported the contract created with that blob and not archived at an offset the proof may
 *   speak for: the ledger end before the fetch, or — for an honest cached proof — the offset before an
 *   archive inside the cache window (src/core/audit/ledger-checks.ts).
 * - `id-verified`: the contract ID recomputes from the blob (formerly "proven"): the pair is
 *   consistent; not that the contract was ever created on the ledger, nor that it is still active.
 * - `asserted`: only the exchange's word (no proof, a failed proof, or a proof the ledger contradicts).
 * - `unverifiable`: the proof could not be checked (unsupported ID version, missing types, …).
 *
 * The run's level is the weakest pool's (`unverifiable` for a run without pools). Pure.
 */

export type AssuranceLevel = 'ledger-confirmed' | 'id-verified' | 'asserted' | 'unverifiable';

/** Strongest first. */
export const ASSURANCE_LEVELS: readonly AssuranceLevel[] = [
  'ledger-confirmed',
  'id-verified',
  'asserted',
  'unverifiable',
];

/** One line per level: what it rests on and what it does not prove (reports print it). */
export const ASSURANCE_LIMITS: Readonly<Record<AssuranceLevel, string>> = {
  'ledger-confirmed':
    'a participant reported the contract created with this blob and not archived; rests on that participant (trusted), not on the tokens being held',
  'id-verified':
    'the contract ID recomputes from the blob: the pair is consistent; not proven that the contract was created on the ledger or is still active',
  asserted:
    "only the exchange's word: no proof verified it, or the proof failed or the ledger contradicted it",
  unverifiable:
    'the proof could not be checked (unsupported contract ID version, missing types, unreadable fields)',
};

/** The ledger check's answer for a pool's contract (./ledger-checks.ts). */
export type LedgerPoolResult = 'confirmed' | 'contradicted' | 'superseded' | 'could-not-check' | 'not-run';

/**
 * A pool's level from its proof status (src/core/proof: proven / failed / unverifiable, or missing)
 * and the ledger check of its contract.
 */
export function computePoolAssurance(
  proof: 'proven' | 'failed' | 'unverifiable' | 'missing',
  ledger: LedgerPoolResult,
): AssuranceLevel {
  if (proof === 'unverifiable') return 'unverifiable';
  if (proof !== 'proven') return 'asserted';
  if (ledger === 'contradicted') return 'asserted';
  // superseded: created with this blob and archived only within the cache window of the fetch (or after
  // the audit began) — active at the offset before its archive, as an honest cached proof claims
  return ledger === 'confirmed' || ledger === 'superseded' ? 'ledger-confirmed' : 'id-verified';
}

/** The weakest of `levels` (the run's level); `unverifiable` when there are none. */
export function computeRunAssurance(levels: readonly AssuranceLevel[]): AssuranceLevel {
  if (levels.length === 0) return 'unverifiable';
  let worst = 0;
  for (const l of levels) worst = Math.max(worst, ASSURANCE_LEVELS.indexOf(l));
  return ASSURANCE_LEVELS[worst] ?? 'unverifiable';
}

/** How many pools reached each level. */
export function computeAssuranceCounts(
  levels: readonly AssuranceLevel[],
): Readonly<Record<AssuranceLevel, number>> {
  const out: Record<AssuranceLevel, number> = {
    'ledger-confirmed': 0,
    'id-verified': 0,
    asserted: 0,
    unverifiable: 0,
  };
  for (const l of levels) out[l]++;
  return out;
}
