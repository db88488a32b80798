/**
 * Reads a `FatContractInstance` payload in either layout (docs/protocol/blob-format.md §2.3 current,
 * §2.4 legacy, §3.1 Identifier) into its parts; contract-assembly.ts derives and checks the rest.
 * Field numbers come from the generated descriptor (schema.ts).
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import type { BlobLayout, ContractKey, DecodedContract, TemplateId } from './contract.js';
import { assemble, type FciParts } from './contract-assembly.js';
import {
  CURRENT_FCI,
  CURRENT_KEY,
  CURRENT_VALUE,
  IDENTIFIER,
  LEGACY_FCI,
  LEGACY_KEY,
  LEGACY_VALUE,
  type ValueLayout,
} from './schema.js';
import { isDamlName, isPackageId, isPackageName, isPartyIdCached } from './validate.js';
import type { Value } from './value.js';
import { readValue, type ValueContext } from './value-decoder.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT, type WireReader } from './wire-reader.js';

function readParty(r: WireReader, end: number, what: string, at: number): string {
  const s = r.readString(end, what);
  if (!isPartyIdCached(s, r.scratch?.parties ?? null))
    r.fail('BLOB_INVALID_PARTY', `${what} expected a party id, got ${formatGot(s)}`, at);
  return s;
}

/** The FatContractInstance fields both layouts share (under different numbers). */
const COMMON_FIELDS = [
  'contractId',
  'packageName',
  'templateId',
  'createArg',
  'nonMaintainerSignatories',
  'nonSignatoryStakeholders',
  'createdAt',
  'authenticationData',
] as const;
type CommonField = (typeof COMMON_FIELDS)[number];

/** The shared fields by their numbers in each layout (the legacy one calls field 8 canton_data). */
const CURRENT_COMMON: ReadonlyMap<number, CommonField> = new Map(
  COMMON_FIELDS.map((f) => [CURRENT_FCI[f], f]),
);
const LEGACY_COMMON: ReadonlyMap<number, CommonField> = new Map(
  COMMON_FIELDS.map((f) => [f === 'authenticationData' ? LEGACY_FCI.cantonData : LEGACY_FCI[f], f]),
);

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
      r.expectLenOnce(tag, p.contractId, 'FatContractInstance.contract_id', o);
      p.contractId = r.readBytes(end, 'FatContractInstance.contract_id');
      return;
    case 'packageName':
      r.expectLenOnce(tag, p.packageName, 'FatContractInstance.package_name', o);
      p.packageName = r.readString(end, 'FatContractInstance.package_name');
      return;
    case 'templateId':
      r.expectLenOnce(tag, p.templateId, 'FatContractInstance.template_id', o);
      p.templateId = readIdentifier(r, end, 'FatContractInstance.template_id');
      return;
    case 'createArg': {
      r.expectLenOnce(tag, p.createArg, 'FatContractInstance.create_arg', o);
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
      r.expectOnce(tag, WIRE_I64, p.createdAt, 'FatContractInstance.created_at', o);
      p.createdAt = r.readSfixed64(end, 'FatContractInstance.created_at');
      return;
    case 'authenticationData': {
      const what = `FatContractInstance.${authLabel}`;
      r.expectLenOnce(tag, p.authenticationData, what, o);
      p.authenticationData = r.readBytes(end, what);
      return;
    }
  }
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

/**
 * A KeyWithMaintainers in one layout: the key Value's field and name, the maintainers, and the hash
 * (current) or the versioned key that must stay absent (legacy); 0: the layout has no such field.
 */
interface KeyMessage {
  readonly key: number;
  readonly keyLabel: string;
  readonly maintainers: number;
  readonly hash: number;
  readonly forbidden: number;
}

const CURRENT_KEY_MESSAGE: KeyMessage = {
  key: CURRENT_KEY.key,
  keyLabel: 'KeyWithMaintainers.key',
  maintainers: CURRENT_KEY.maintainers,
  hash: CURRENT_KEY.hash,
  forbidden: 0,
};
const LEGACY_KEY_MESSAGE: KeyMessage = {
  key: LEGACY_KEY.keyUnversioned,
  keyLabel: 'KeyWithMaintainers.key_unversioned',
  maintainers: LEGACY_KEY.maintainers,
  hash: 0,
  forbidden: LEGACY_KEY.keyVersioned,
};

function readKey(r: WireReader, end: number, ctx: ValueContext, at: number, m: KeyMessage): ContractKey {
  const stop = r.readLength(end, 'KeyWithMaintainers');
  let key: Value | undefined;
  let hash: Uint8Array | undefined;
  const maintainers: string[] = [];
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    const f = tag >>> 3;
    if (f === m.key) {
      r.expectLenOnce(tag, key, m.keyLabel);
      key = readValue(ctx, r.readLength(stop, m.keyLabel), 1);
    } else if (f === m.maintainers) {
      r.expectWire(tag, WIRE_LEN, 'KeyWithMaintainers.maintainers');
      maintainers.push(readParty(r, stop, 'KeyWithMaintainers.maintainers', r.tagAt));
    } else if (f === m.hash && m.hash !== 0) {
      r.expectLenOnce(tag, hash, 'KeyWithMaintainers.hash');
      hash = r.readBytes(stop, 'KeyWithMaintainers.hash');
    } else if (f === m.forbidden && m.forbidden !== 0) r.forbidden('KeyWithMaintainers.key_versioned');
    else r.unknownField(tag, stop, 'KeyWithMaintainers');
  }
  if (key === undefined)
    r.fail('BLOB_MISSING_FIELD', 'KeyWithMaintainers.key expected a Value, got none', at);
  return { key, maintainers, hash: hash === undefined || hash.length === 0 ? null : hash };
}

/** How a FatContractInstance layout reads beyond its shared fields. */
interface FciLayout {
  readonly name: BlobLayout;
  readonly value: ValueLayout;
  readonly common: ReadonlyMap<number, CommonField>;
  /** field 8's name */
  readonly authLabel: string;
  readonly key: number;
  readonly keyMessage: KeyMessage;
  /** 0: the layout has none */
  readonly packageVersion: number;
  /** the current layout requires a package name; a legacy blob may lack one */
  readonly packageNameRequired: boolean;
}

export const CURRENT_FCI_LAYOUT: FciLayout = {
  name: 'current',
  value: CURRENT_VALUE,
  common: CURRENT_COMMON,
  authLabel: 'authentication_data',
  key: CURRENT_FCI.key,
  keyMessage: CURRENT_KEY_MESSAGE,
  packageVersion: CURRENT_FCI.packageVersion,
  packageNameRequired: true,
};
export const LEGACY_FCI_LAYOUT: FciLayout = {
  name: 'legacy',
  value: LEGACY_VALUE,
  common: LEGACY_COMMON,
  authLabel: 'canton_data',
  key: LEGACY_FCI.key,
  keyMessage: LEGACY_KEY_MESSAGE,
  packageVersion: 0,
  packageNameRequired: false,
};

/** Reads the FatContractInstance payload ending at `end` in layout `l`. */
export function readFatContract(
  r: WireReader,
  end: number,
  version: string,
  maxDepth: number,
  l: FciLayout,
): DecodedContract {
  const p: FciParts = { nonMaintainerSignatories: [], nonSignatoryStakeholders: [], packageVersion: [] };
  const ctx: ValueContext = { r, layout: l.value, maxDepth };
  for (let tag = r.nextTag(end); tag !== 0; tag = r.nextTag(end)) {
    const o = r.tagAt;
    const f = tag >>> 3;
    const common = l.common.get(f);
    if (common !== undefined) readCommonField(ctx, p, common, tag, end, o, l.authLabel);
    else if (f === l.packageVersion && l.packageVersion !== 0)
      readPackageVersion(r, tag, end, p.packageVersion, o);
    else if (f === l.key) {
      r.expectLenOnce(tag, p.key, 'FatContractInstance.contract_key_with_maintainers', o);
      p.key = readKey(r, end, ctx, o, l.keyMessage);
    } else r.unknownField(tag, end, 'FatContractInstance', o);
  }
  const name = p.packageName ?? '';
  if (name === '' && l.packageNameRequired) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.package_name" expected a package name, got none`,
    );
  }
  if (name !== '' && !isPackageName(name)) {
    throw new CodecError(
      'BLOB_INVALID_FIELD',
      `"FatContractInstance.package_name" expected [A-Za-z0-9._-]{1,255}, got ${formatGot(name)}`,
    );
  }
  return assemble({ ...p, packageName: name }, version, l.name);
}

function readIdentifier(r: WireReader, end: number, what: string): TemplateId {
  const at = r.pos;
  const stop = r.readLength(end, what);
  let packageId: string | undefined;
  const module: string[] = [];
  const entity: string[] = [];
  for (let tag = r.nextTag(stop); tag !== 0; tag = r.nextTag(stop)) {
    const o = r.tagAt;
    const f = tag >>> 3;
    if (f === IDENTIFIER.packageId) {
      r.expectLenOnce(tag, packageId, `${what}.package_id`, o);
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
