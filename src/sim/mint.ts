/**
 * Minting of reserve contracts (docs/protocol/api-decisions.md §3): the create argument of `PoolReserve`, a
 * Canton V1 contract ID computed by the same core that verifies it (src/core/hash
 * computeContractId: contract hash per version, unicum, suffix ca10/ca11/ca12) and the
 * `created_event_blob` encoded by src/core/codec. Discriminator and salt are 32 random bytes each
 * from the injected RNG (discriminator first, then salt); `authentication_data` version 30.
 */
import type { DecodedContract } from '../core/codec/contract.js';
import { encodeCreatedEventBlob } from '../core/codec/index.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import type { HashContext } from '../core/hash/hash-context.js';
import { computeContractId } from '../core/hash/index.js';
import type { Sha256 } from '../core/hash/sha256.js';
import { createTypeEnv, type TypeEnv } from '../core/types/type-env.js';
import { ServerError } from '../errors/server.js';
import {
  encodeReserveCreateArg,
  RESERVE_PACKAGE_NAME,
  RESERVE_PACKAGE_TYPES,
  RESERVE_TEMPLATE_ID,
  type ReserveFields,
} from './reserve-template.js';
import type { SimRng } from './rng.js';

/** The blob envelope version Canton 3.x writes for keyless contracts (docs/protocol/blob-format.md §2.2). */
const RESERVE_SERIALIZATION_VERSION = '2.1';

/** The type environment holding the reserve package (V12 hashing). */
export const RESERVE_TYPE_ENV: TypeEnv = createTypeEnv([RESERVE_PACKAGE_TYPES]);

export interface MintInput {
  readonly fields: ReserveFields;
  readonly version: ContractIdVersion;
  /** ledger time of the creating transaction, µs since the epoch */
  readonly createdAtMicros: bigint;
  readonly rng: SimRng;
  readonly sha256: Sha256;
  /** the hash builder and caches repeated mints share (one per exchange; fresh when absent) */
  readonly context?: HashContext | undefined;
  /**
   * non-signatory stakeholders (observers) of the contract, e.g. the auditor party of
   * `serve --auditor-party` (docs/decisions/server.md); none by default. They are inputs of the
   * unicum, so they change the contract ID, never the create argument.
   */
  readonly observers?: readonly string[];
}

export interface MintedReserve {
  /** lower-case hex, 138 chars */
  readonly contractId: string;
  readonly contractIdBytes: Uint8Array;
  /** the created_event_blob bytes */
  readonly blob: Uint8Array;
  readonly contract: DecodedContract;
}

/** Mints one reserve contract. Throws ServerError RESERVE_MINT_FAILED if the core refuses it. */
export function mintReserveContract(x: MintInput): MintedReserve {
  const discriminator = x.rng.bytes(32);
  const salt = x.rng.bytes(32);
  const operator = x.fields.operator;
  const observers = (x.observers ?? []).filter((p) => p !== operator);
  try {
    const computed = computeContractId({
      contract: {
        serializationVersion: RESERVE_SERIALIZATION_VERSION,
        layout: 'current',
        packageName: RESERVE_PACKAGE_NAME,
        templateId: RESERVE_TEMPLATE_ID,
        createArg: encodeReserveCreateArg(x.fields, x.version),
        nonMaintainerSignatories: [operator],
        nonSignatoryStakeholders: observers,
        signatories: [operator],
        stakeholders: [operator, ...observers],
        createdAt: x.createdAtMicros,
        key: null,
        packageVersion: [],
      },
      version: x.version,
      discriminator,
      salt,
      types: RESERVE_TYPE_ENV,
      sha256: x.sha256,
      context: x.context,
    });
    return {
      contractId: computed.contractIdHex,
      contractIdBytes: computed.contractId,
      blob: encodeCreatedEventBlob(computed.contract),
      contract: computed.contract,
    };
  } catch (cause) {
    throw new ServerError(
      'RESERVE_MINT_FAILED',
      `"reserve" of pool ${JSON.stringify(x.fields.poolId)} could not be minted as a ${x.version} contract`,
      { cause },
    );
  }
}
