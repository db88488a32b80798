/**
 * A decoded `created_event_blob`: the `Versioned` envelope plus the `FatContractInstance`
 * (docs/protocol/blob-format.md §2, docs/protocol/contract-id.md §4).
 */
import type { Value } from './value.js';

/** A party identifier, e.g. `DSO::1220…`. */
export type PartyId = string;

export interface TemplateId {
  /** 64 lower-case hex chars */
  readonly packageId: string;
  /** dotted-name segments, e.g. ['Splice', 'Amulet'] */
  readonly module: readonly string[];
  /** dotted-name segments, e.g. ['FeaturedAppRight'] */
  readonly entity: readonly string[];
}

export interface Salt {
  /** Salt.hmac algorithm enum (1 = HMAC-SHA256) */
  readonly algorithm: number;
  /** 32 bytes */
  readonly bytes: Uint8Array;
}

export interface AuthenticationData {
  /** raw bytes of FCI field 8, kept verbatim for byte-identical re-encoding */
  readonly raw: Uint8Array;
  /** UntypedVersionedMessage.version (30 for V1 contract IDs on Canton 3.x; 0 = absent) */
  readonly version: number;
  /** null when field 8 could not be parsed as a V1 wrapper (e.g. V2 IDs) */
  readonly salt: Salt | null;
}

export interface ContractKey {
  readonly key: Value;
  readonly maintainers: readonly PartyId[];
  /** KeyWithMaintainers.hash (serialization version "2" only) */
  readonly hash: Uint8Array | null;
}

export type BlobLayout = 'current' | 'legacy';

export interface DecodedContract {
  /** Versioned.version, e.g. "2.1" */
  readonly serializationVersion: string;
  /** which FatContractInstance field numbering was detected (docs/protocol/blob-format.md §2.4) */
  readonly layout: BlobLayout;
  readonly contractId: Uint8Array;
  readonly packageName: string;
  readonly templateId: TemplateId;
  readonly createArg: Value;
  readonly nonMaintainerSignatories: readonly PartyId[];
  readonly nonSignatoryStakeholders: readonly PartyId[];
  /** non_maintainer_signatories ∪ key maintainers, sorted, unique */
  readonly signatories: readonly PartyId[];
  /** signatories ∪ non_signatory_stakeholders, sorted, unique */
  readonly stakeholders: readonly PartyId[];
  /** ledger time of creation, microseconds since the epoch */
  readonly createdAt: bigint;
  readonly authenticationData: AuthenticationData;
  readonly key: ContractKey | null;
  /** FCI field 9 (dev only); empty when absent */
  readonly packageVersion: readonly number[];
  /** unknown fields skipped by the decoder; present (possibly empty) only with `unknownFields: 'report'` */
  readonly unknownFields?: readonly UnknownFieldReport[];
}

/**
 * An unknown protobuf field skipped by a decoder run with `unknownFields: 'report'`
 * (added by the codec; see src/core/codec/limits.ts).
 */
export interface UnknownFieldReport {
  /** the message it was found in, e.g. `FatContractInstance`, `Value.Record.Field` */
  readonly message: string;
  readonly fieldNumber: number;
  readonly wireType: number;
  /** byte offset of the field's tag in the decoded buffer */
  readonly offset: number;
}
