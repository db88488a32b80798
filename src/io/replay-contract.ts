/**
 * Re-verifying ONE stored reserve contract for `replay` (the issue "replay"): recompute its ID from
 * the stored blob, read the reserves through the reserve profile, compare them with what the
 * mirror recorded. Shared by the in-process path and the worker threads (./replay-worker.ts), so
 * both give the same findings; never throws for a bad blob (a finding says what went wrong).
 */
import {
  extractProvenFields,
  type Finding,
  findTemplateProfile,
  isSameAmount,
  makeFinding,
  type ReserveProfile,
} from '../core/audit/index.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { verifyProof } from './audit-run.js';
import { batchBlob, type ContractBatch } from './store/index.js';

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

/** Re-verifies one stored contract against its blob. */
export function replayStoredContract(
  k: StoredContractInput,
  types: TypeEnv,
  profile: ReserveProfile,
): ReplayedContractResult {
  const short = `${k.contractId.slice(0, 16)}…`;
  const v = verifyProof(k.contractId, k.blob, types);
  const f: Finding[] = [];
  if (v.decoded === null) {
    f.push(
      makeFinding(
        'PROOF_BLOB_MALFORMED',
        k.poolId,
        `stored blob of ${short} does not decode: ${v.decodeError ?? ''}`,
        { contractId: k.contractId },
      ),
    );
    return { findings: f, proven: null };
  }
  const idOk = v.decoded.embeddedContractId === k.contractId && v.idStatus !== 'mismatch';
  if (!idOk)
    f.push(
      makeFinding('PROOF_CONTRACT_ID_MISMATCH', k.poolId, `stored contract ${short} does not recompute from its blob`, {
        contractId: k.contractId,
        reasons: v.reasons,
        embedded: v.decoded.embeddedContractId,
      }),
    );
  else if (v.idStatus === 'could-not-check')
    f.push(
      makeFinding(
        'PROOF_UNVERIFIABLE',
        k.poolId,
        `stored contract ${short} could not be verified: ${v.reasons.join('; ')}`,
        { contractId: k.contractId },
      ),
    );
  const t = v.decoded.template;
  const tp = findTemplateProfile(profile, t);
  if (tp === null) {
    f.push(
      makeFinding('PROOF_TEMPLATE_UNEXPECTED', k.poolId, `stored contract ${short} is of template ${t.entityName}`, {
        contractId: k.contractId,
        got: t,
      }),
    );
    return { findings: f, proven: null };
  }
  const ex = extractProvenFields(tp, v.decoded.createArg, v.decoded.fieldLabels);
  if (!ex.ok) {
    f.push(makeFinding('PROOF_UNVERIFIABLE', k.poolId, ex.reason, { contractId: k.contractId }));
    return { findings: f, proven: null };
  }
  for (const [name, exp, got] of [
    ['reserve_a', ex.value.reserveA, k.reserveA],
    ['reserve_b', ex.value.reserveB, k.reserveB],
    ['total_lp_supply', ex.value.totalLpSupply, k.totalLpSupply],
  ] as const)
    if (!isSameAmount(exp, got))
      f.push(
        makeFinding(
          'PROOF_FIELD_MISMATCH',
          k.poolId,
          `recorded ${name} ${got} of ${short} differs from its blob (${exp})`,
          { contractId: k.contractId, field: name, expected: exp, got },
        ),
      );
  const proven =
    idOk && v.idStatus === 'verified'
      ? {
          reserveA: ex.value.reserveA,
          reserveB: ex.value.reserveB,
          totalLpSupply: ex.value.totalLpSupply,
          createdAtMicros: v.decoded.createdAtMicros,
          template: `${t.packageId}:${t.packageName}:${t.moduleName}:${t.entityName}`,
        }
      : null;
  return { findings: f, proven };
}

/** Re-verifies every contract of a batch, in batch order. */
export function replayContractBatch(
  b: ContractBatch,
  types: TypeEnv,
  profile: ReserveProfile,
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
    );
  return out;
}
