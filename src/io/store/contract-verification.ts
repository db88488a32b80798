/**
 * The mirror's verification record of a reserve contract, derived from the one proof result
 * (src/core/proof/reserve-proof.ts) — the same derivation whether the contract was verified by
 * `audit` or by `snapshot`, so both record the same status, reason and values:
 * status = the contract ID alone (recomputed = embedded = published); reason = the first reason
 * of that verification; the reserve fields are the blob's when the proof is proven, otherwise the
 * published ones are stored.
 */
import type { ReserveProof } from '../../core/proof/reserve-proof.js';
import type { ContractVerificationInput } from './types.js';

/** What recordSnapshot stores for a contract whose proof gave `proof`. */
export function computeContractVerification(proof: ReserveProof): ContractVerificationInput {
  const f = proof.provenFields;
  return {
    status: proof.idStatus,
    reason: proof.idReason,
    decoded:
      f === null || proof.createdAtMicros === null
        ? null
        : {
            reserveA: f.reserveA,
            reserveB: f.reserveB,
            totalLpSupply: f.totalLpSupply,
            createdAtMicros: proof.createdAtMicros,
          },
  };
}
