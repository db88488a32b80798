/**
 * Verifying the reserve contracts of a snapshot before recording it (spec/contract-id.md §9 via
 * H2's verifyContractId): only contracts the mirror has not settled yet (absent, 'unchecked' or
 * 'could-not-check') are verified. For a verified contract whose template the reserve profile
 * knows, the reserves are read from the blob, so the mirror stores proven values.
 */

import type { Sha256 } from '../../core/hash/sha256.js';
import { verifyContractId } from '../../core/hash/verify-contract-id.js';
import {
  DEFAULT_RESERVE_PROFILE,
  extractProvenFields,
  findTemplateProfile,
  type ReserveProfile,
} from '../../core/proof/profile.js';
import type { TypeEnv } from '../../core/types/type-env.js';
import type { ApiSnapshot, PoolProofInfo } from '../../core/wire/index.js';
import type { Mirror } from './open-mirror.js';
import type { ContractVerificationInput } from './types.js';

export interface VerifySnapshotContractsOptions {
  readonly types?: TypeEnv | undefined;
  readonly sha256?: Sha256 | undefined;
  readonly profile?: ReserveProfile;
  /** verify even contracts the mirror already settled (default false) */
  readonly all?: boolean;
}

/** The distinct reserve contracts of both proof sets of a snapshot, by contract ID. */
export function collectSnapshotContracts(snapshot: ApiSnapshot): Map<string, PoolProofInfo> {
  const out = new Map<string, PoolProofInfo>();
  for (const s of [snapshot.proofsBefore, snapshot.proofsAfter]) {
    if (s.ok) for (const p of s.value.data.pools) out.set(p.reserve_contract.contract_id, p);
  }
  return out;
}

/** Verifies the snapshot's unsettled contracts; never throws for a bad blob (status could-not-check). */
export function verifySnapshotContracts(
  mirror: Mirror | null,
  snapshot: ApiSnapshot,
  options: VerifySnapshotContractsOptions = {},
): Map<string, ContractVerificationInput> {
  const profile = options.profile ?? DEFAULT_RESERVE_PROFILE;
  const settled = mirror?.db
    .prepare('SELECT verification_status FROM contracts WHERE contract_id = ?')
    .pluck();
  const out = new Map<string, ContractVerificationInput>();
  for (const [cid, p] of collectSnapshotContracts(snapshot)) {
    if (options.all !== true && settled !== undefined) {
      const status = settled.get(cid);
      if (status === 'verified' || status === 'mismatch') continue;
    }
    const v = verifyContractId({
      contractId: cid,
      blob: p.reserve_contract.created_event_blob,
      types: options.types,
      sha256: options.sha256,
    });
    const first = v.reasons[0];
    let decoded: ContractVerificationInput['decoded'] = null;
    if (v.status === 'verified' && v.contract !== null) {
      const t = v.contract.templateId;
      const tp = findTemplateProfile(profile, {
        packageId: t.packageId,
        packageName: v.contract.packageName,
        moduleName: t.module.join('.'),
        entityName: t.entity.join('.'),
      });
      const fields = tp === null ? null : extractProvenFields(tp, v.contract.createArg, null);
      if (fields?.ok === true) {
        decoded = {
          reserveA: fields.value.reserveA,
          reserveB: fields.value.reserveB,
          totalLpSupply: fields.value.totalLpSupply,
          createdAtMicros: v.contract.createdAt,
        };
      }
    }
    out.set(cid, {
      status: v.status,
      reason: first === undefined ? null : `${first.code}: ${first.message}`,
      decoded,
    });
  }
  return out;
}
