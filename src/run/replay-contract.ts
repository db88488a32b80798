/**
 * Re-verifying ONE stored reserve contract for `replay` (the issue "replay"): the one proof step
 * (src/core/proof `verifyReserveProof`, with the verdict detail: the verdict engine answers a clean
 * proof without decoding the blob, everything else takes the full step) on the stored blob, then the
 * one proof-to-findings rule of the audit (`checkReserveProof`) against the values the mirror
 * recorded. Shared by the in-process path and distributed replay's workers
 * (./replay-distributed.ts), so both give the same findings; never throws for a bad blob (a
 * finding says what went wrong).
 */
import { checkReserveProof, type Finding, type TemplateIdentity } from '../core/audit/index.js';
import type { ReserveProfile } from '../core/proof/profile.js';
import { createProofContext, type ProofContext } from '../core/proof/proof-context.js';
import { verifyReserveProof } from '../core/proof/reserve-proof.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { createWasmVerdictEngine } from '../core/verdict/wasm/engine.js';
import { sha256Node, sha256NodeBinary } from '../io/node-sha256.js';
import { batchBlob, type ContractBatch } from '../io/store/index.js';

/** What re-verifying one stored contract proved (structured-cloneable). */
export interface ReplayedContract {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly createdAtMicros: bigint;
  readonly template: string;
}

/** The outcome for one contract: its findings (none = pass) and, when proven, its blob's values. */
export interface ReplayedContractResult {
  readonly findings: Finding[];
  readonly proven: ReplayedContract | null;
}

export interface StoredContractInput {
  readonly contractId: string;
  readonly poolId: string;
  readonly blob: Uint8Array;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
}

/** `packageId:packageName:module:entity` per template identity (the fast path reuses identities). */
const TEMPLATE_KEYS = new WeakMap<TemplateIdentity, string>();

function templateKeyOf(t: TemplateIdentity): string {
  let k = TEMPLATE_KEYS.get(t);
  if (k === undefined) {
    k = `${t.packageId}:${t.packageName}:${t.moduleName}:${t.entityName}`;
    TEMPLATE_KEYS.set(t, k);
  }
  return k;
}

/** The proof context of a replay run: the WebAssembly verdict engine with node's SHA-256, when available. */
export function createReplayContext(): ProofContext {
  return createProofContext(createWasmVerdictEngine(sha256NodeBinary));
}

/**
 * Re-verifies one stored contract against its blob: the proof step with the verdict detail (the
 * context's engine answers a clean proof), then the audit's proof-to-findings rule against the
 * recorded values. No findings = pass.
 */
export function replayStoredContract(
  k: StoredContractInput,
  types: TypeEnv,
  profile: ReserveProfile,
  context: ProofContext,
): ReplayedContractResult {
  const proof = verifyReserveProof({
    contractId: k.contractId,
    blob: k.blob,
    types,
    profile,
    sha256: sha256Node,
    detail: 'verdict',
    context,
  });
  const r = checkReserveProof(proof, k, profile, 'recorded');
  const findings: Finding[] = [...r.contractId];
  if (typeof r.template !== 'string') findings.push(...r.template);
  if (typeof r.fields !== 'string') findings.push(...r.fields);
  const proven =
    proof.provenFields === null || proof.createdAtMicros === null || proof.template === null
      ? null
      : {
          reserveA: proof.provenFields.reserveA,
          reserveB: proof.provenFields.reserveB,
          totalLpSupply: proof.provenFields.totalLpSupply,
          createdAtMicros: proof.createdAtMicros,
          template: templateKeyOf(proof.template),
        };
  return { findings, proven };
}

/** Re-verifies every contract of a batch, in batch order. */
export function replayContractBatch(
  b: ContractBatch,
  types: TypeEnv,
  profile: ReserveProfile,
  context: ProofContext,
): ReplayedContractResult[] {
  const out: ReplayedContractResult[] = new Array(b.contractIds.length);
  for (let i = 0; i < b.contractIds.length; i++)
    out[i] = replayStoredContract(
      {
        contractId: b.contractIds[i] ?? '',
        poolId: b.poolIds[i] ?? '',
        blob: batchBlob(b, i),
        reserveA: b.reserveA[i] ?? '',
        reserveB: b.reserveB[i] ?? '',
        totalLpSupply: b.totalLpSupply[i] ?? '',
      },
      types,
      profile,
      context,
    );
  return out;
}
