/**
 * THE proof step over a reference-template contract, as the follower and the audit run it on the
 * simulator's ledger: the simulator's types, the default reserve profile, node's SHA-256 (tests only).
 */
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { type ReserveProof, verifyReserveProof } from '../../src/core/proof/reserve-proof.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { RESERVE_TYPE_ENV } from '../../src/sim/mint.js';

export const verifyReferenceReserve = (contractId: string, blob: Uint8Array): ReserveProof =>
  verifyReserveProof({
    contractId,
    blob,
    types: RESERVE_TYPE_ENV,
    profile: DEFAULT_RESERVE_PROFILE,
    sha256: sha256Node,
  });
