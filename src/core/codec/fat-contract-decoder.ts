/**
 * Reads a `FatContractInstance` payload in either layout (docs/protocol/blob-format.md §2.3 current,
 * §2.4 legacy, §3.1 Identifier) into its parts; contract-assembly.ts derives and checks the rest.
 * Field numbers come from the generated descriptor (schema.ts).
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import type { ContractKey, DecodedContract, TemplateId } from './contract.js';
import { assemble, type FciParts } from './contract-assembly.js';
import {
  CURRENT_FCI,
  CURRENT_KEY,
  CURRENT_VALUE,
  IDENTIFIER,
  LEGACY_FCI,
  LEGACY_KEY,
  LEGACY_VALUE,
} from './schema.js';
import { isDamlName, isPackageId, isPackageName, isPartyIdCached } from './validate.js';
import type { Value } from './value.js';
import { readValue, type ValueContext } from './value-decoder.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT, type WireReader } from './wire-reader.js';

function once(r: WireReader, present: unknown, what: string, at: number): void {
  if (present !== undefined) r.fail('BLOB_DUPLICATE_FIELD', `${what} expected once, got twice`, at);
}

function readParty(r: WireReader, end: number, what: string, at: number): string {
  const s = r.readString(end, what);
  if (!isPartyIdCached(s, r.scratch?.parties ?? null))
    r.fail('BLOB_INVALID_PARTY', `${what} expected a party id, got ${formatGot(s)}`, at);
  return s;
}

/** The FatContractInstance fields both layouts share (under different numbers). */
type CommonField =
  | 'contractId'
  | 'packageName'
  | 'templateId'
  | 'createArg'
  | 'nonMaintainerSignatories'
  | 'nonSignatoryStakeholders'
  | 'createdAt'
  | 'authenticationData';

const CURRENT_COMMON: ReadonlyMap<number, CommonField> = new Map<number, CommonField>([
  [CURRENT_FCI.contractId, 'contractId'],
  [CURRENT_FCI.packageName, 'packageName'],
  [CURRENT_FCI.templateId, 'templateId'],
  [CURRENT_FCI.createArg, 'createArg'],
  [CURRENT_FCI.nonMaintainerSignatories, 'nonMaintainerSignatories'],
  [CURRENT_FCI.nonSignatoryStakeholders, 'nonSignatoryStakeholders'],
  [CURRENT_FCI.createdAt, 'createdAt'],
  [CURRENT_FCI.authenticationData, 'authenticationData'],
]);

const LEGACY_COMMON: ReadonlyMap<number, CommonField> = new Map<number, CommonField>([
  [LEGACY_FCI.contractId, 'contractId'],
  [LEGACY_FCI.packageName, 'packageName'],
  [LEGACY_FCI.templateId, 'templateId'],
  [LEGACY_FCI.createArg, 'createArg'],
  [LEGACY_FCI.nonMaintainerSignatories, 'nonMaintainerSignatories'],
  [LEGACY_FCI.nonSignatoryStakeholders, 'nonSignatoryStakeholders'],
  [LEGACY_FCI.createdAt, 'createdAt'],
  [LEGACY_FCI.cantonData, 'authenticationData'],
]);

/** Reads one shared field into `p`; `authLabel` is field 8's name in the layout (for messages). */
function readCommonField(
  ctx: ValueContext,
  p: FciParts,
  field: CommonField,
  tag: number,
  end: number,
  o: number,
  authLabel: string,
): void {
  const r = ctx.r;
  switch (field) {
    case 'contractId':
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_id', o);
      once(r, p.contractId, 'FatContractInstance.contract_id', o);
      p.contractId = r.readBytes(end, 'FatContractInstance.contract_id');
      return;
    case 'packageName':
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.package_name', o);
      once(r, p.packageName, 'FatContractInstance.package_name', o);
      p.packageName = r.readString(end, 'FatContractInstance.package_name');
      return;
    case 'templateId':
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.template_id', o);
      once(r, p.templateId, 'FatContractInstance.template_id', o);
      p.templateId = readIdentifier(r, end, 'FatContractInstance.template_id');
      return;
    case 'createArg': {
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.create_arg', o);
      once(r, p.createArg, 'FatContractInstance.create_arg', o);
      const stop = r.readLength(end, 'FatContractInstance.create_arg');
      p.createArg = readValue(ctx, stop, 1);
      return;
    }
    case 'nonMaintainerSignatories':
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_maintainer_signatories', o);
      p.nonMaintainerSignatories.push(readParty(r, end, 'FatContractInstance.non_maintainer_signatories', o));
      return;
    case 'nonSignatoryStakeholders':
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_signatory_stakeholders', o);
      p.nonSignatoryStakeholders.push(readParty(r, end, 'FatContractInstance.non_signatory_stakeholders', o));
      return;
    case 'createdAt':
      r.expectWire(tag, WIRE_I64, 'FatContractInstance.created_at', o);
      once(r, p.createdAt, 'FatContractInstance.created_at', o);
      p.createdAt = r.readSfixed64(end, 'FatContractInstance.created_at');
      return;
    case 'authenticationData': {
      const what = `FatContractInstance.${authLabel}`;
      r.expectWire(tag, WIRE_LEN, what, o);
      once(r, p.authenticationData, what, o);
      p.authenticationData = r.readBytes(end, what);
      return;
    }
  }
}

export function readCurrent(r: WireReader, end: number, version: string, maxDepth: number): DecodedContract {
  const F = CURRENT_FCI;
  const p: FciParts = { nonMaintainerSignatories: [], nonSignatoryStakeholders: [], packageVersion: [] };
  const ctx: ValueContext = { r, layout: CURRENT_VALUE, maxDepth };
  while (r.pos < end) {
    const o = r.pos;
    const tag = r.readTag(end);
    const f = tag >>> 3;
    const common = CURRENT_COMMON.get(f);
    if (common !== undefined) readCommonField(ctx, p, common, tag, end, o, 'authentication_data');
    else if (f === F.packageVersion) readPackageVersion(r, tag, end, p.packageVersion, o);
    else if (f === F.key) {
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_key_with_maintainers', o);
      once(r, p.key, 'FatContractInstance.contract_key_with_maintainers', o);
      p.key = readCurrentKey(r, end, ctx, o);
    } else r.unknownField(tag, end, 'FatContractInstance', o);
  }
  if (p.packageName === undefined || p.packageName === '') {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.package_name" expected a package name, got none`,
    );
  }
  if (!isPackageName(p.packageName)) {
    throw new CodecError(
      'BLOB_INVALID_FIELD',
      `"FatContractInstance.package_name" expected [A-Za-z0-9._-]{1,255}, got ${formatGot(p.packageName)}`,
    );
  }
  return assemble(p, version, 'current');
}

function readPackageVersion(r: WireReader, tag: number, end: number, out: number[], o: number): void {
  const what = 'FatContractInstance.package_version';
  if ((tag & 7) === WIRE_LEN) {
    const stop = r.readLength(end, what);
    while (r.pos < stop) out.push(nonNegative(r, r.readInt32(stop, what), what, o));
  } else {
    r.expectWire(tag, WIRE_VARINT, what, o);
    out.push(nonNegative(r, r.readInt32(end, what), what, o));
  }
}

function nonNegative(r: WireReader, v: number, what: string, at: number): number {
  if (v < 0) r.fail('BLOB_INVALID_FIELD', `${what} expected a non-negative integer, got ${v}`, at);
  return v;
}

function readCurrentKey(r: WireReader, end: number, ctx: ValueContext, at: number): ContractKey {
  const stop = r.readLength(end, 'KeyWithMaintainers');
  let key: Value | undefined;
  let hash: Uint8Array | undefined;
  const maintainers: string[] = [];
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    switch (tag >>> 3) {
      case CURRENT_KEY.key: {
        r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.key', o);
        once(r, key, 'KeyWithMaintainers.key', o);
        const vStop = r.readLength(stop, 'KeyWithMaintainers.key');
        key = readValue(ctx, vStop, 1);
        break;
      }
      case CURRENT_KEY.maintainers:
        r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.maintainers', o);
        maintainers.push(readParty(r, stop, 'KeyWithMaintainers.maintainers', o));
        break;
      case CURRENT_KEY.hash:
        r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.hash', o);
        once(r, hash, 'KeyWithMaintainers.hash', o);
        hash = r.readBytes(stop, 'KeyWithMaintainers.hash');
        break;
      default:
        r.unknownField(tag, stop, 'KeyWithMaintainers', o);
    }
  }
  if (key === undefined)
    r.fail('BLOB_MISSING_FIELD', 'KeyWithMaintainers.key expected a Value, got none', at);
  return { key, maintainers, hash: hash === undefined || hash.length === 0 ? null : hash };
}

export function readLegacy(r: WireReader, end: number, version: string, maxDepth: number): DecodedContract {
  const F = LEGACY_FCI;
  const p: FciParts = { nonMaintainerSignatories: [], nonSignatoryStakeholders: [], packageVersion: [] };
  const ctx: ValueContext = { r, layout: LEGACY_VALUE, maxDepth };
  while (r.pos < end) {
    const o = r.pos;
    const tag = r.readTag(end);
    const f = tag >>> 3;
    const common = LEGACY_COMMON.get(f);
    if (common !== undefined) readCommonField(ctx, p, common, tag, end, o, 'canton_data');
    else if (f === F.key) {
      r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_key_with_maintainers', o);
      once(r, p.key, 'FatContractInstance.contract_key_with_maintainers', o);
      p.key = readLegacyKey(r, end, ctx, o);
    } else r.unknownField(tag, end, 'FatContractInstance', o);
  }
  const name = p.packageName ?? '';
  if (name !== '' && !isPackageName(name)) {
    throw new CodecError(
      'BLOB_INVALID_FIELD',
      `"FatContractInstance.package_name" expected [A-Za-z0-9._-]{1,255}, got ${formatGot(name)}`,
    );
  }
  return assemble({ ...p, packageName: name }, version, 'legacy');
}

function readLegacyKey(r: WireReader, end: number, ctx: ValueContext, at: number): ContractKey {
  const stop = r.readLength(end, 'KeyWithMaintainers');
  let key: Value | undefined;
  const maintainers: string[] = [];
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    switch (tag >>> 3) {
      case LEGACY_KEY.keyUnversioned: {
        r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.key_unversioned', o);
        once(r, key, 'KeyWithMaintainers.key', o);
        const vStop = r.readLength(stop, 'KeyWithMaintainers.key_unversioned');
        key = readValue(ctx, vStop, 1);
        break;
      }
      case LEGACY_KEY.keyVersioned:
        r.fail(
          'BLOB_INVALID_FIELD',
          'KeyWithMaintainers.key_versioned expected absent (must not be used), got one',
          o,
        );
        break;
      case LEGACY_KEY.maintainers:
        r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.maintainers', o);
        maintainers.push(readParty(r, stop, 'KeyWithMaintainers.maintainers', o));
        break;
      default:
        r.unknownField(tag, stop, 'KeyWithMaintainers', o);
    }
  }
  if (key === undefined)
    r.fail('BLOB_MISSING_FIELD', 'KeyWithMaintainers.key expected a Value, got none', at);
  return { key, maintainers, hash: null };
}

function readIdentifier(r: WireReader, end: number, what: string): TemplateId {
  const at = r.pos;
  const stop = r.readLength(end, what);
  let packageId: string | undefined;
  const module: string[] = [];
  const entity: string[] = [];
  while (r.pos < stop) {
    const o = r.pos;
    const tag = r.readTag(stop);
    const f = tag >>> 3;
    if (f === IDENTIFIER.packageId) {
      r.expectWire(tag, WIRE_LEN, `${what}.package_id`, o);
      once(r, packageId, `${what}.package_id`, o);
      packageId = r.readString(stop, `${what}.package_id`);
    } else if (f === IDENTIFIER.moduleName || f === IDENTIFIER.name) {
      r.expectWire(tag, WIRE_LEN, `${what}.${f === IDENTIFIER.name ? 'name' : 'module_name'}`, o);
      const s = r.readString(stop, what);
      if (!isDamlName(s))
        r.fail('BLOB_INVALID_FIELD', `${what} expected Daml name segments, got ${formatGot(s)}`, o);
      (f === IDENTIFIER.name ? entity : module).push(s);
    } else r.unknownField(tag, stop, 'Identifier', o);
  }
  if (packageId === undefined || module.length === 0 || entity.length === 0) {
    r.fail('BLOB_MISSING_FIELD', `${what} expected package_id, module_name and name, got some missing`, at);
  }
  if (!isPackageId(packageId)) {
    r.fail(
      'BLOB_INVALID_FIELD',
      `${what}.package_id expected 64 lower-case hex chars, got ${formatGot(packageId)}`,
      at,
    );
  }
  return { packageId, module, entity };
}
