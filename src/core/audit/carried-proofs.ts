/**
 * The blobs a response carried as the proof of the reserve contract it was computed from (probe
 * quotes, tickers; docs/findings.md "Soundness"): one check each. A blob the proof step could not
 * complete (missing types, an unsupported version) is no finding; one that does not decode, whose
 * contract ID does not recompute, or that is not a reserve template is an error — no honest exchange
 * serves it as that contract's proof, as the same blob in /pools/proof would be.
 */
import type { ReserveProof } from '../proof/reserve-proof.js';
import { type AuditArea, type AuditCollector, makeFinding } from './finding.js';
import type { FindingCode } from './finding-codes.js';

/** `proofs`: by contract ID, the pool each blob was carried for and the proof step's result for it. */
export function checkCarriedProofs(
  c: AuditCollector,
  proofs: ReadonlyMap<string, { readonly poolId: string; readonly proof: ReserveProof }>,
  check: {
    readonly area: AuditArea;
    readonly name: string;
    readonly code: FindingCode;
    /** what carried the blobs, in the message: "a quote", "a ticker" */
    readonly carrier: string;
  },
): void {
  for (const [contractId, { poolId, proof }] of proofs) {
    if (proof.status === 'unverifiable') continue;
    const reasons = proof.reasons.map((r) => `${r.code}: ${r.message}`).join('; ');
    c.record(
      check.area,
      check.name,
      poolId,
      proof.status === 'proven'
        ? []
        : [
            makeFinding(
              check.code,
              poolId,
              `the blob ${check.carrier} carried for reserve contract ${contractId.slice(0, 16)}… does not prove it: ${reasons}`,
              { contractId, reasons: proof.reasons.map((r) => r.code) },
            ),
          ],
    );
  }
}
