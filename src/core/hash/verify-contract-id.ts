/**
 * Contract-ID verification (docs/protocol/contract-id.md §1, §9): recompute the suffix of a published
 * contract ID from a `created_event_blob` and compare, as Canton's `ContractValidator` does, and
 * also check that the blob embeds the same contract ID (§0).
 *
 * Never throws for a mismatch or bad input: every problem is a reason with a stable code, and the
 * status says `verified`, `mismatch` (a definite failure) or `could-not-check` (bad input,
 * unsupported version, missing types). A pass proves only that the pair (ID, blob) is internally
 * consistent — not that the contract exists or is active on the ledger (§0).
 */
import { isReserveAuditError } from '../../errors/base.js';
import type { DecodedContract } from '../codec/contract.js';
import { decodeCreatedEventBlob } from '../codec/index.js';
import type { TypeEnv } from '../types/type-env.js';
import { resolveTemplateCached } from '../types/type-env.js';
import { formatMissingTypesHint } from '../types/types-hint.js';
import { computeContractHash } from './contract-hash.js';
import type { ParsedContractId } from './contract-id.js';
import { computeContractIdSuffix, parseContractId, parseContractIdEqualTo } from './contract-id.js';
import type { ContractIdVersion } from './contract-id-version.js';
import { HashContext } from './hash-context.js';
import { bytesEqual, bytesToHex } from './hex.js';
import type { Sha256 } from './sha256.js';
import { sha256Noble } from './sha256.js';
import { computeTypedContractHash } from './typed-value-hash.js';
import { computeUnicum } from './unicum.js';

export type VerificationStatus = 'verified' | 'mismatch' | 'could-not-check';

export interface VerificationReason {
  /** stable code: CONTRACT_ID_MISMATCH, SUFFIX_MISMATCH, UNSUPPORTED_CONTRACT_ID_VERSION, TYPES_REQUIRED, TYPE_NOT_FOUND, BLOB_*, … */
  readonly code: string;
  readonly message: string;
  /** true when this reason is a definite failure (status `mismatch`), false when it prevented the check */
  readonly mismatch: boolean;
}

export interface TypingInfo {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  /** typed with a newer package version than the blob's (upgrade substitution) */
  readonly upgraded: boolean;
  readonly note: string | null;
}

export interface ContractIdVerification {
  /** status === 'verified' */
  readonly ok: boolean;
  readonly status: VerificationStatus;
  /** from the published ID's suffix; null when the ID could not be parsed */
  readonly version: ContractIdVersion | null;
  readonly reasons: readonly VerificationReason[];
  /** hex; null when not computed */
  readonly contractHash: string | null;
  readonly unicum: string | null;
  /** hex of versionPrefix ‖ 1220 ‖ recomputed unicum */
  readonly expectedSuffix: string | null;
  /** hex of the published ID's suffix */
  readonly actualSuffix: string | null;
  /** the blob's field-1 contract ID equals the published one; null when the blob was not decoded */
  readonly embeddedContractIdMatches: boolean | null;
  readonly embeddedContractId: string | null;
  readonly typing?: TypingInfo;
  /** the decoded blob (to read the reserves from after a pass); null when decoding failed */
  readonly contract: DecodedContract | null;
}

export interface VerifyContractIdOptions {
  /** published contract ID, lower-case hex */
  readonly contractId: string;
  /** the created_event_blob: bytes or base64 */
  readonly blob: Uint8Array | string;
  /** Daml types for V12 */
  readonly types?: TypeEnv | undefined;
  readonly sha256?: Sha256 | undefined;
  /** the builder, caches and scratch repeated verifications share (./hash-context.ts; fresh when absent) */
  readonly context?: HashContext | undefined;
}

/** The options of `verifyContractId`, with an already-decoded contract in place of the blob. */
export interface VerifyDecodedContractOptions extends Omit<VerifyContractIdOptions, 'blob'> {
  /** an already-decoded blob */
  readonly contract: DecodedContract;
  /** V10/V11: the contract hash already computed from the blob (the one-pass verifier) */
  readonly contractHash?: Uint8Array | undefined;
}

function reasonOf(e: unknown, mismatch = false): VerificationReason {
  if (isReserveAuditError(e)) return { code: e.code, message: e.shortMessage, mismatch };
  return { code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e), mismatch };
}

function statusOf(reasons: readonly VerificationReason[]): VerificationStatus {
  if (reasons.some((r) => r.mismatch)) return 'mismatch';
  return reasons.length > 0 ? 'could-not-check' : 'verified';
}

/** Decodes the blob and verifies it against the published contract ID. Never throws. */
export function verifyContractId(opts: VerifyContractIdOptions): ContractIdVerification {
  const context = opts.context ?? new HashContext();
  let contract: DecodedContract;
  try {
    // the decoder's scratch only from a caller's context (a fresh one would be 256 KiB of cache per call)
    contract = decodeCreatedEventBlob(opts.blob, { scratch: opts.context?.decode });
  } catch (e) {
    const reasons: VerificationReason[] = [reasonOf(e)];
    let version: ContractIdVersion | null = null;
    let actualSuffix: string | null = null;
    try {
      const id = parseContractId(opts.contractId);
      version = id.version;
      actualSuffix = bytesToHex(id.suffix, context.hex);
    } catch (e2) {
      reasons.unshift(reasonOf(e2));
    }
    return {
      ok: false,
      status: statusOf(reasons),
      version,
      reasons,
      contractHash: null,
      unicum: null,
      expectedSuffix: null,
      actualSuffix,
      embeddedContractIdMatches: null,
      embeddedContractId: null,
      contract: null,
    };
  }
  return verifyDecodedContract({ ...opts, contract, context });
}

/** Verifies an already-decoded contract against the published contract ID. Never throws. */
export function verifyDecodedContract(opts: VerifyDecodedContractOptions): ContractIdVerification {
  const sha256 = opts.sha256 ?? sha256Noble;
  const context = opts.context ?? new HashContext();
  const hex = context.hex;
  const contract = opts.contract;
  const reasons: VerificationReason[] = [];
  // fast path: the published ID is canonical and its hex spells exactly the embedded bytes
  let id: ParsedContractId | null = parseContractIdEqualTo(opts.contractId, contract.contractId);
  let embeddedMatches: boolean | null = true;
  if (id === null) {
    try {
      id = parseContractId(opts.contractId);
    } catch (e) {
      reasons.push(reasonOf(e));
    }
    // Compare with the embedded ID only when the published one is a valid ID at all.
    embeddedMatches = id === null ? null : bytesEqual(contract.contractId, id.bytes);
  }
  // hex strings: reuse the published ID's text where the bytes are equal (no re-encoding)
  const embeddedHex = embeddedMatches === true && id !== null ? id.hex : bytesToHex(contract.contractId, hex);
  if (id !== null && !embeddedMatches) {
    reasons.push({
      code: 'CONTRACT_ID_MISMATCH',
      message: `"contractId" expected to equal the blob's embedded contract id ${embeddedHex}, got ${id.hex}`,
      mismatch: true,
    });
  }
  if (id === null) {
    return {
      ok: false,
      status: statusOf(reasons),
      version: null,
      reasons,
      contractHash: null,
      unicum: null,
      expectedSuffix: null,
      actualSuffix: null,
      embeddedContractIdMatches: null,
      embeddedContractId: embeddedHex,
      contract,
    };
  }

  let typing: TypingInfo | undefined;
  let contractHash: Uint8Array | null = null;
  let unicum: Uint8Array | null = null;
  let expectedSuffix: Uint8Array | null = null;
  let suffixMatches = false;
  try {
    if (id.version === 'v12') {
      if (opts.types === undefined) {
        reasons.push({
          code: 'TYPES_REQUIRED',
          message: `"types" expected Daml types for the V12 (ca12) contract id of template ${contract.packageName} ${contract.templateId.module.join('.')}:${contract.templateId.entity.join('.')}, got none: give ${formatMissingTypesHint(contract.packageName, contract.templateId.packageId)}`,
          mismatch: false,
        });
      } else {
        const r = resolveTemplateCached(opts.types, contract.templateId, contract.packageName);
        if (!r.ok)
          reasons.push({
            code: 'TYPE_NOT_FOUND',
            message: `${r.reason}: give ${formatMissingTypesHint(contract.packageName, contract.templateId.packageId)}`,
            mismatch: false,
          });
        else {
          typing = {
            packageId: r.package.packageId,
            packageName: r.package.name,
            packageVersion: r.package.version,
            upgraded: r.upgraded,
            note: r.note,
          };
          contractHash = computeTypedContractHash(contract, opts.types, r, sha256, context);
        }
      }
    } else {
      contractHash = opts.contractHash ?? computeContractHash(id.version, contract, sha256, context);
    }
    if (contractHash !== null) {
      const salt = contract.authenticationData.salt;
      if (salt === null) {
        reasons.push({
          code: 'SALT_INVALID',
          message: '"authenticationData" expected a V1 contract salt (UntypedVersionedMessage v30), got none',
          mismatch: false,
        });
      } else {
        unicum = computeUnicum(
          {
            salt: salt.bytes,
            createdAt: contract.createdAt,
            signatories: contract.signatories,
            stakeholders: contract.stakeholders,
            key: contract.key,
            contractHash,
          },
          sha256,
          context,
        );
        // id is a parsed V1 ID of this version: prefix and 12 20 agree, compare the unicum only
        suffixMatches = unicumEquals(unicum, id.bytes);
        if (!suffixMatches) {
          expectedSuffix = computeContractIdSuffix(id.version, unicum);
          reasons.push({
            code: 'SUFFIX_MISMATCH',
            message: `"contractId" suffix expected ${bytesToHex(expectedSuffix, hex)} (recomputed from the blob), got ${bytesToHex(id.suffix, hex)}`,
            mismatch: true,
          });
        }
      }
    }
  } catch (e) {
    reasons.push(reasonOf(e));
  }
  const status = statusOf(reasons);
  let expectedSuffixHex: string | null = null;
  if (suffixMatches) expectedSuffixHex = id.hex.slice(66);
  else if (expectedSuffix !== null) expectedSuffixHex = bytesToHex(expectedSuffix, hex);
  const result: { -readonly [K in keyof ContractIdVerification]: ContractIdVerification[K] } = {
    ok: status === 'verified',
    status,
    version: id.version,
    reasons,
    contractHash: contractHash === null ? null : bytesToHex(contractHash, hex),
    unicum: expectedSuffixHex === null ? null : expectedSuffixHex.slice(8),
    expectedSuffix: expectedSuffixHex,
    actualSuffix: id.hex.slice(66),
    embeddedContractIdMatches: embeddedMatches,
    embeddedContractId: embeddedHex,
    contract,
  };
  if (typing !== undefined) result.typing = typing;
  return result;
}

/** unicum (32 bytes) equals bytes 37..69 of the 69-byte contract ID. */
function unicumEquals(unicum: Uint8Array, idBytes: Uint8Array): boolean {
  if (unicum.length !== 32 || idBytes.length !== 69) return false;
  let d = 0;
  for (let i = 0; i < 32; i++) d |= (unicum[i] as number) ^ (idBytes[37 + i] as number);
  return d === 0;
}
