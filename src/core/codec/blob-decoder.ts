/**
 * Decodes a `created_event_blob` (spec/blob-format.md §2, §4, §6; spec/contract-id.md §4):
 * the `Versioned` envelope, layout detection (§2.4: payload field 2 starting with 0x0a = an
 * Identifier = legacy), then the `FatContractInstance` of that layout and its `create_arg` Value.
 * Derived: signatories = non_maintainer_signatories ∪ key maintainers; stakeholders = signatories ∪
 * non_signatory_stakeholders (each pair must be disjoint; signatories non-empty).
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { decodeAuthenticationData } from './authentication-data.js';
import { parseBase64 } from './bytes.js';
import type { BlobLayout, ContractKey, DecodedContract, TemplateId, UnknownFieldReport } from './contract.js';
import { guardDecode } from './guard.js';
import { type DecodeOptions, resolveDecodeOptions } from './limits.js';
import {
  CURRENT_FCI,
  CURRENT_KEY,
  CURRENT_VALUE,
  ENVELOPE,
  IDENTIFIER,
  LEGACY_FCI,
  LEGACY_KEY,
  LEGACY_VALUE,
} from './schema.js';
import {
  checkContractIdBytes,
  firstUnsorted,
  isDamlName,
  isPackageId,
  isPackageName,
  isPartyIdCached,
} from './validate.js';
import type { Value } from './value.js';
import { readValue, type ValueContext } from './value-decoder.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader } from './wire-reader.js';

/** `Versioned.version` strings a decoder accepts, and the layout each implies (null = either). */
const VERSIONS: Readonly<Record<string, BlobLayout | null>> = {
  '14': 'legacy',
  '15': 'legacy',
  '17': 'legacy',
  dev: null,
  '2.1': 'current',
  '2': 'current',
};

/** Accepted serialization version strings (blob-format.md §2.2). */
export const SUPPORTED_SERIALIZATION_VERSIONS: readonly string[] = Object.keys(VERSIONS);

/**
 * Decodes a created_event_blob given as bytes or as standard base64 text.
 * Throws `CodecError` (stable codes, see src/errors/codec.ts) on any malformed input.
 */
export function decodeCreatedEventBlob(input: Uint8Array | string, options?: DecodeOptions): DecodedContract {
  return guardDecode(() => {
    const opts = resolveDecodeOptions(options);
    let bytes: Uint8Array;
    if (typeof input === 'string') bytes = parseBase64(input, 'created_event_blob', opts.maxBytes);
    else if (input instanceof Uint8Array) bytes = input;
    else {
      throw new CodecError(
        'BLOB_MALFORMED',
        `"created_event_blob" expected bytes or a base64 string, got ${formatGot(typeof input)}`,
      );
    }
    if (bytes.length > opts.maxBytes) {
      throw new CodecError(
        'BLOB_TOO_LARGE',
        `"created_event_blob" expected at most ${opts.maxBytes} bytes, got ${bytes.length}`,
        { details: { size: bytes.length, maxBytes: opts.maxBytes } },
      );
    }
    // one private copy: the decoded bytes fields are views into it, safe from later caller writes
    if (bytes === input && opts.copyInput) bytes = bytes.slice();
    const unknown: UnknownFieldReport[] | null = opts.unknownFields === 'report' ? [] : null;
    const r = new WireReader(bytes, unknown, opts.maxBytes);
    const contract = readEnvelope(r, opts.maxDepth);
    return unknown === null ? contract : { ...contract, unknownFields: unknown };
  });
}

function readEnvelope(r: WireReader, maxDepth: number): DecodedContract {
  const end = r.buf.length;
  let version: string | undefined;
  let payload: [number, number] | undefined;
  while (r.pos < end) {
    if (payload !== undefined && r.unknown === null) {
      r.fail(
        'BLOB_TRAILING_BYTES',
        `Versioned expected nothing after the payload, got ${end - r.pos} more bytes`,
      );
    }
    const o = r.pos;
    const tag = r.readTag(end);
    const f = tag >>> 3;
    if (f === ENVELOPE.version) {
      r.expectWire(tag, WIRE_LEN, 'Versioned.version', o);
      if (version !== undefined)
        r.fail('BLOB_DUPLICATE_FIELD', 'Versioned.version expected once, got twice', o);
      version = r.readString(end, 'Versioned.version');
    } else if (f === ENVELOPE.payload) {
      r.expectWire(tag, WIRE_LEN, 'Versioned.payload', o);
      if (payload !== undefined)
        r.fail('BLOB_DUPLICATE_FIELD', 'Versioned.payload expected once, got twice', o);
      const stop = r.readLength(end, 'Versioned.payload');
      payload = [r.pos, stop];
      r.pos = stop;
    } else r.unknownField(tag, end, 'Versioned', o);
  }
  if (version === undefined || !(version in VERSIONS)) {
    throw new CodecError(
      'BLOB_UNSUPPORTED_VERSION',
      `"Versioned.version" expected one of ${SUPPORTED_SERIALIZATION_VERSIONS.join(', ')}, got ${formatGot(version ?? '')}`,
      { details: { offset: 0 } },
    );
  }
  if (payload === undefined) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"Versioned.payload" expected a FatContractInstance, got none`,
    );
  }
  const layout = detectLayout(r.buf, payload[0], payload[1]);
  const required = VERSIONS[version];
  if (required !== null && required !== undefined && required !== layout) {
    throw new CodecError(
      'BLOB_UNSUPPORTED_VERSION',
      `"Versioned.version" ${formatGot(version)} expected the ${required} FatContractInstance layout, got the ${layout} one`,
    );
  }
  r.pos = payload[0];
  return layout === 'current'
    ? readCurrent(r, payload[1], version, maxDepth)
    : readLegacy(r, payload[1], version, maxDepth);
}

/**
 * blob-format.md §2.4: in the payload, field 2 is the package name (current) or an Identifier
 * (legacy), whose first byte is the package_id tag 0x0a. Malformed payloads default to 'current'
 * and fail in the real decode.
 */
export function detectLayout(buf: Uint8Array, start: number, end: number): BlobLayout {
  const r = new WireReader(buf, [], end - start);
  r.pos = start;
  try {
    while (r.pos < end) {
      const o = r.pos;
      const tag = r.readTag(end);
      if (tag === ((2 << 3) | WIRE_LEN)) {
        const stop = r.readLength(end, 'field 2');
        return stop > r.pos && buf[r.pos] === 0x0a ? 'legacy' : 'current';
      }
      r.unknownField(tag, end, 'FatContractInstance', o);
    }
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
  }
  return 'current';
}

interface FciParts {
  contractId?: Uint8Array;
  packageName?: string;
  templateId?: TemplateId;
  createArg?: Value;
  nonMaintainerSignatories: string[];
  nonSignatoryStakeholders: string[];
  createdAt?: bigint;
  authenticationData?: Uint8Array;
  packageVersion: number[];
  key?: ContractKey;
}

function once(r: WireReader, present: unknown, what: string, at: number): void {
  if (present !== undefined) r.fail('BLOB_DUPLICATE_FIELD', `${what} expected once, got twice`, at);
}

function readParty(r: WireReader, end: number, what: string, at: number): string {
  const s = r.readString(end, what);
  if (!isPartyIdCached(s))
    r.fail('BLOB_INVALID_PARTY', `${what} expected a party id, got ${formatGot(s)}`, at);
  return s;
}

function readCurrent(r: WireReader, end: number, version: string, maxDepth: number): DecodedContract {
  const F = CURRENT_FCI;
  const p: FciParts = { nonMaintainerSignatories: [], nonSignatoryStakeholders: [], packageVersion: [] };
  const ctx: ValueContext = { r, layout: CURRENT_VALUE, maxDepth };
  while (r.pos < end) {
    const o = r.pos;
    const tag = r.readTag(end);
    switch (tag >>> 3) {
      case F.contractId:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_id', o);
        once(r, p.contractId, 'FatContractInstance.contract_id', o);
        p.contractId = r.readBytes(end, 'FatContractInstance.contract_id');
        break;
      case F.packageName:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.package_name', o);
        once(r, p.packageName, 'FatContractInstance.package_name', o);
        p.packageName = r.readString(end, 'FatContractInstance.package_name');
        break;
      case F.templateId:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.template_id', o);
        once(r, p.templateId, 'FatContractInstance.template_id', o);
        p.templateId = readIdentifier(r, end, 'FatContractInstance.template_id');
        break;
      case F.createArg: {
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.create_arg', o);
        once(r, p.createArg, 'FatContractInstance.create_arg', o);
        const stop = r.readLength(end, 'FatContractInstance.create_arg');
        p.createArg = readValue(ctx, stop, 1);
        break;
      }
      case F.nonMaintainerSignatories:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_maintainer_signatories', o);
        p.nonMaintainerSignatories.push(
          readParty(r, end, 'FatContractInstance.non_maintainer_signatories', o),
        );
        break;
      case F.nonSignatoryStakeholders:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_signatory_stakeholders', o);
        p.nonSignatoryStakeholders.push(
          readParty(r, end, 'FatContractInstance.non_signatory_stakeholders', o),
        );
        break;
      case F.createdAt:
        r.expectWire(tag, WIRE_I64, 'FatContractInstance.created_at', o);
        once(r, p.createdAt, 'FatContractInstance.created_at', o);
        p.createdAt = r.readSfixed64(end, 'FatContractInstance.created_at');
        break;
      case F.authenticationData:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.authentication_data', o);
        once(r, p.authenticationData, 'FatContractInstance.authentication_data', o);
        p.authenticationData = r.readBytes(end, 'FatContractInstance.authentication_data');
        break;
      case F.packageVersion:
        readPackageVersion(r, tag, end, p.packageVersion, o);
        break;
      case F.key:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_key_with_maintainers', o);
        once(r, p.key, 'FatContractInstance.contract_key_with_maintainers', o);
        p.key = readCurrentKey(r, end, ctx, o);
        break;
      default:
        r.unknownField(tag, end, 'FatContractInstance', o);
    }
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

function readLegacy(r: WireReader, end: number, version: string, maxDepth: number): DecodedContract {
  const F = LEGACY_FCI;
  const p: FciParts = { nonMaintainerSignatories: [], nonSignatoryStakeholders: [], packageVersion: [] };
  const ctx: ValueContext = { r, layout: LEGACY_VALUE, maxDepth };
  while (r.pos < end) {
    const o = r.pos;
    const tag = r.readTag(end);
    switch (tag >>> 3) {
      case F.contractId:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_id', o);
        once(r, p.contractId, 'FatContractInstance.contract_id', o);
        p.contractId = r.readBytes(end, 'FatContractInstance.contract_id');
        break;
      case F.templateId:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.template_id', o);
        once(r, p.templateId, 'FatContractInstance.template_id', o);
        p.templateId = readIdentifier(r, end, 'FatContractInstance.template_id');
        break;
      case F.createArg: {
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.create_arg', o);
        once(r, p.createArg, 'FatContractInstance.create_arg', o);
        const stop = r.readLength(end, 'FatContractInstance.create_arg');
        p.createArg = readValue(ctx, stop, 1);
        break;
      }
      case F.key:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.contract_key_with_maintainers', o);
        once(r, p.key, 'FatContractInstance.contract_key_with_maintainers', o);
        p.key = readLegacyKey(r, end, ctx, o);
        break;
      case F.nonMaintainerSignatories:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_maintainer_signatories', o);
        p.nonMaintainerSignatories.push(
          readParty(r, end, 'FatContractInstance.non_maintainer_signatories', o),
        );
        break;
      case F.nonSignatoryStakeholders:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.non_signatory_stakeholders', o);
        p.nonSignatoryStakeholders.push(
          readParty(r, end, 'FatContractInstance.non_signatory_stakeholders', o),
        );
        break;
      case F.createdAt:
        r.expectWire(tag, WIRE_I64, 'FatContractInstance.created_at', o);
        once(r, p.createdAt, 'FatContractInstance.created_at', o);
        p.createdAt = r.readSfixed64(end, 'FatContractInstance.created_at');
        break;
      case F.cantonData:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.canton_data', o);
        once(r, p.authenticationData, 'FatContractInstance.canton_data', o);
        p.authenticationData = r.readBytes(end, 'FatContractInstance.canton_data');
        break;
      case F.packageName:
        r.expectWire(tag, WIRE_LEN, 'FatContractInstance.package_name', o);
        once(r, p.packageName, 'FatContractInstance.package_name', o);
        p.packageName = r.readString(end, 'FatContractInstance.package_name');
        break;
      default:
        r.unknownField(tag, end, 'FatContractInstance', o);
    }
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

function checkSorted(list: readonly string[], what: string): void {
  const i = firstUnsorted(list);
  if (i >= 0) {
    const dup = list[i] === list[i - 1];
    throw new CodecError(
      'BLOB_UNSORTED_PARTIES',
      `"${what}" expected strictly ascending parties, got ${dup ? 'a duplicate' : 'an unsorted entry'} ${formatGot(list[i])} at index ${i}`,
      { details: { index: i } },
    );
  }
}

/** Merges two strictly ascending lists; returns null when they share an element. */
function mergeDisjoint(a: readonly string[], b: readonly string[]): string[] | null {
  if (b.length === 0) return a as string[];
  if (a.length === 0) return b as string[];
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) return null;
    if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function assemble(p: FciParts, version: string, layout: BlobLayout): DecodedContract {
  if (p.contractId === undefined || p.contractId.length === 0) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.contract_id" expected contract-id bytes, got none`,
    );
  }
  const bad = checkContractIdBytes(p.contractId);
  if (bad !== null) {
    throw new CodecError(
      'BLOB_INVALID_FIELD',
      `"FatContractInstance.contract_id" expected ${bad}, got ${p.contractId.length} bytes`,
    );
  }
  if (p.templateId === undefined) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.template_id" expected an Identifier, got none`,
    );
  }
  if (p.createArg === undefined) {
    throw new CodecError('BLOB_MISSING_FIELD', `"FatContractInstance.create_arg" expected a Value, got none`);
  }
  checkSorted(p.nonMaintainerSignatories, 'FatContractInstance.non_maintainer_signatories');
  checkSorted(p.nonSignatoryStakeholders, 'FatContractInstance.non_signatory_stakeholders');
  const maintainers = p.key?.maintainers ?? [];
  checkSorted(maintainers, 'KeyWithMaintainers.maintainers');
  const signatories = mergeDisjoint(p.nonMaintainerSignatories, maintainers);
  if (signatories === null) {
    throw new CodecError(
      'BLOB_INCONSISTENT_PARTIES',
      `"FatContractInstance.non_maintainer_signatories" expected no key maintainer, got an overlap`,
    );
  }
  if (signatories.length === 0) {
    throw new CodecError('BLOB_INCONSISTENT_PARTIES', `"signatories" expected at least one party, got none`);
  }
  const stakeholders = mergeDisjoint(signatories, p.nonSignatoryStakeholders);
  if (stakeholders === null) {
    throw new CodecError(
      'BLOB_INCONSISTENT_PARTIES',
      `"FatContractInstance.non_signatory_stakeholders" expected no signatory, got an overlap`,
    );
  }
  const raw = p.authenticationData ?? new Uint8Array(0);
  return {
    serializationVersion: version,
    layout,
    contractId: p.contractId,
    packageName: p.packageName ?? '',
    templateId: p.templateId,
    createArg: p.createArg,
    nonMaintainerSignatories: p.nonMaintainerSignatories,
    nonSignatoryStakeholders: p.nonSignatoryStakeholders,
    signatories,
    stakeholders,
    createdAt: p.createdAt ?? 0n,
    authenticationData: decodeAuthenticationData(raw, p.contractId),
    key: p.key ?? null,
    packageVersion: p.packageVersion,
  };
}
