/**
 * The contract hash (LF `Hash`, 32 bytes) of a contract instance, per contract-ID version
 * (docs/protocol/contract-id.md §6.1–§6.4):
 *
 *   V10: SHA256(00 05 ‖ str(packageName) ‖ identifier(pkgId, module, entity) ‖ enc_L(arg))
 *   V11: SHA256(01 05 ‖ str(packageName) ‖ identifier(pkgId, module, entity) ‖ ufRecord(arg))
 *   V12: SHA256(03 05 ‖ str(packageName) ‖ qualifiedName(module, entity)      ‖ enc_T(typedArg))
 *
 * Also the generic value hash `SHA256(versionByte ‖ purposeByte ‖ enc(value))` that the
 * Canton/Daml stability vectors use (purpose 0x01 Testing).
 */

import { HashError } from '../../errors/hash.js';
import type { TemplateId } from '../codec/contract.js';
import type { Value } from '../codec/value.js';
import type { TypedValue } from '../types/typed-value.js';
import type { ContractIdVersion, HashingMethod } from './contract-id-version.js';
import { HASH_VERSION_BYTE, HASHING_METHOD_OF, LF_PURPOSE } from './contract-id-version.js';
import { HashBuilder } from './hash-builder.js';
import { HashContext } from './hash-context.js';
import type { Sha256 } from './sha256.js';
import { sha256Noble } from './sha256.js';
import { encodeTypedNormalFormValue } from './typed-normal-form-hash.js';
import {
  encodeLegacyValue,
  encodeUpgradeFriendlyRecord,
  encodeUpgradeFriendlyValue,
} from './untyped-value-hash.js';

export interface ContractHashInput {
  readonly packageName: string;
  readonly templateId: TemplateId;
  /** the untyped create argument (V10, V11) */
  readonly createArg: Value;
  /** the create argument typed against the template (V12 only) */
  readonly typedCreateArg?: TypedValue | undefined;
}

/**
 * Writes the contract-hash preimage into `b` (after `b.reset()` by the caller if needed).
 * Throws HashError VALUE_NOT_HASHABLE (V11 argument not a record) or TYPES_REQUIRED (V12 without
 * a typed argument).
 */
function encodeContractHashPreimage(
  b: HashBuilder,
  version: ContractIdVersion,
  input: ContractHashInput,
): void {
  const method = HASHING_METHOD_OF[version];
  const t = input.templateId;
  b.byte(HASH_VERSION_BYTE[method]).byte(LF_PURPOSE.contractInstance).str(input.packageName);
  switch (method) {
    case 'legacy':
      b.identifier(t.packageId, t.module, t.entity);
      encodeLegacyValue(b, input.createArg);
      return;
    case 'upgradeFriendly':
      if (input.createArg.kind !== 'record') {
        throw new HashError(
          'VALUE_NOT_HASHABLE',
          `"createArg" expected a record for V11 hashing, got ${input.createArg.kind}`,
        );
      }
      b.identifier(t.packageId, t.module, t.entity);
      encodeUpgradeFriendlyRecord(b, input.createArg.fields);
      return;
    case 'typedNormalForm':
      if (input.typedCreateArg === undefined) {
        throw new HashError(
          'TYPES_REQUIRED',
          '"typedCreateArg" expected the create argument typed against its template (V12 needs Daml types), got undefined',
        );
      }
      b.qualifiedName(t.module, t.entity);
      encodeTypedNormalFormValue(b, input.typedCreateArg);
      return;
  }
}

/** The contract-hash preimage bytes (a fresh copy). */
export function computeContractHashPreimage(
  version: ContractIdVersion,
  input: ContractHashInput,
): Uint8Array {
  const b = new HashBuilder(1024);
  encodeContractHashPreimage(b, version, input);
  return b.bytes().slice();
}

/** The 32-byte contract hash for `version` (`context`: the builder repeated hashes share; fresh when absent). */
export function computeContractHash(
  version: ContractIdVersion,
  input: ContractHashInput,
  sha256: Sha256 = sha256Noble,
  context: HashContext = new HashContext(),
): Uint8Array {
  const b = context.builder.reset();
  encodeContractHashPreimage(b, version, input);
  return sha256(b.bytes());
}

/**
 * SHA256(versionByte ‖ purposeByte ‖ enc(value)) — the LF value hash of the stability vectors.
 * `upgradeFriendly` hashes enc_U(value); pass a record to hash ufRecord. For `typedNormalForm` the
 * value must be typed.
 */
export function computeValueHash(
  method: Exclude<HashingMethod, 'typedNormalForm'>,
  value: Value,
  options: { purpose?: number; sha256?: Sha256; context?: HashContext } = {},
): Uint8Array {
  const b = (options.context ?? new HashContext()).builder.reset();
  b.byte(HASH_VERSION_BYTE[method]).byte(options.purpose ?? LF_PURPOSE.testing);
  if (method === 'legacy') encodeLegacyValue(b, value);
  else encodeUpgradeFriendlyValue(b, value);
  return (options.sha256 ?? sha256Noble)(b.bytes());
}

/**
 * SValueHash.assertHashContractInstance(packageName, module:name, value) =
 * SHA256(03 05 ‖ str(packageName) ‖ qualifiedName ‖ enc_T(value)) for any typed value.
 */
export function computeTypedContractInstanceHash(
  packageName: string,
  template: { readonly module: readonly string[]; readonly entity: readonly string[] },
  value: TypedValue,
  sha256: Sha256 = sha256Noble,
  context: HashContext = new HashContext(),
): Uint8Array {
  const b = context.builder.reset();
  b.byte(HASH_VERSION_BYTE.typedNormalForm).byte(LF_PURPOSE.contractInstance).str(packageName);
  b.qualifiedName(template.module, template.entity);
  encodeTypedNormalFormValue(b, value);
  return sha256(b.bytes());
}
