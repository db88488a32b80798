/**
 * Minting: compute the Canton V1 contract ID of a contract as a participant would
 * (docs/protocol/contract-id.md §1 steps 5–7, §2.2, §5, §6), for the reference server and for tests.
 * The discriminator and the salt are inputs (Canton derives them from secret seeds, §2.1, §8).
 */

import { HashError } from '../../errors/hash.js';
import type { AuthenticationData, DecodedContract } from '../codec/contract.js';
import { encodeAuthenticationData } from '../codec/index.js';
import { typeCreateArgument } from '../types/type-value.js';
import type { TypedValue } from '../types/typed-value.js';
import { computeContractHash } from './contract-hash.js';
import { assert32Bytes, computeContractIdBytes, computeContractIdSuffix } from './contract-id.js';
import type { ContractIdVersion } from './contract-id-version.js';
import { HashContext } from './hash-context.js';
import { bytesToHex } from './hex.js';
import { sha256Noble } from './sha256.js';
import { computeUnicum, sortParties } from './unicum.js';
import type { VerifyContractIdOptions } from './verify-contract-id.js';

/** A contract without its ID and authentication data (both are produced here). */
export type ContractDraft = Omit<DecodedContract, 'contractId' | 'authenticationData'> &
  Partial<Pick<DecodedContract, 'contractId' | 'authenticationData'>>;

/** What to mint, with the Daml types (required for v12), SHA-256 and context as for verification. */
export interface ComputeContractIdOptions
  extends Pick<VerifyContractIdOptions, 'types' | 'sha256' | 'context'> {
  readonly contract: ContractDraft;
  readonly version: ContractIdVersion;
  /** 32 bytes (not covered by the suffix) */
  readonly discriminator: Uint8Array;
  /** 32-byte contract salt */
  readonly salt: Uint8Array;
}

export interface ComputedContractId {
  readonly contractId: Uint8Array;
  readonly contractIdHex: string;
  readonly contractHash: Uint8Array;
  readonly unicum: Uint8Array;
  /** the contract with contractId, authenticationData and normalized party sets, ready for encodeCreatedEventBlob */
  readonly contract: DecodedContract;
}

/**
 * Computes the contract ID for `version`. Signatories/stakeholders are normalized (sorted,
 * unique, stakeholders ⊇ signatories). Throws HashError (SALT_INVALID, TYPES_REQUIRED, …) or
 * DamlTypeError for a V12 argument that does not fit its template type.
 */
export function computeContractId(opts: ComputeContractIdOptions): ComputedContractId {
  const sha256 = opts.sha256 ?? sha256Noble;
  const context = opts.context ?? new HashContext();
  const c = opts.contract;
  assert32Bytes(opts.salt, 'salt');
  assert32Bytes(opts.discriminator, 'discriminator');
  let typedCreateArg: TypedValue | undefined;
  if (opts.version === 'v12') {
    if (opts.types === undefined) {
      throw new HashError('TYPES_REQUIRED', '"types" expected Daml types for a v12 contract id, got none');
    }
    typedCreateArg = typeCreateArgument(c, opts.types).value;
  }
  const signatories = [...sortParties([...c.signatories, ...(c.key?.maintainers ?? [])])];
  const stakeholders = [...sortParties([...c.stakeholders, ...c.nonSignatoryStakeholders, ...signatories])];
  const contractHash = computeContractHash(
    opts.version,
    {
      packageName: c.packageName,
      templateId: c.templateId,
      createArg: c.createArg,
      typedCreateArg,
    },
    sha256,
    context,
  );
  const salt = opts.salt.slice();
  const unicum = computeUnicum(
    { salt, createdAt: c.createdAt, signatories, stakeholders, key: c.key, contractHash },
    sha256,
    context,
  );
  const contractId = computeContractIdBytes(
    opts.discriminator,
    computeContractIdSuffix(opts.version, unicum),
  );
  const sigSet = new Set(signatories);
  const authenticationData: AuthenticationData = {
    raw: encodeAuthenticationData(salt),
    version: 30,
    salt: { algorithm: 1, bytes: salt },
  };
  return {
    contractId,
    contractIdHex: bytesToHex(contractId, context.hex),
    contractHash,
    unicum,
    contract: {
      ...c,
      contractId,
      authenticationData,
      signatories,
      stakeholders,
      nonMaintainerSignatories:
        c.key === null ? signatories : signatories.filter((p) => !c.key?.maintainers.includes(p)),
      nonSignatoryStakeholders: stakeholders.filter((p) => !sigSet.has(p)),
    },
  };
}
