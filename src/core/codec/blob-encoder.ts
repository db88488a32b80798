/**
 * Encodes a DecodedContract as a `created_event_blob` exactly as Canton writes one
 * (docs/protocol/blob-format.md §2.3, §2.4, §4): fields in number order (1..8, then 1001), parties sorted
 * and de-duplicated, proto3 defaults omitted (empty lists, created_at 0, empty field 8), numerics
 * as given, authentication data copied verbatim. Re-encoding a decoded real blob is byte-identical;
 * a contract built from scratch (e.g. with `encodeAuthenticationData(salt)`) encodes the same way.
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { SUPPORTED_SERIALIZATION_VERSIONS } from './blob-decoder.js';
import type { DecodedContract, TemplateId } from './contract.js';
import { guardEncode } from './guard.js';
import { CURRENT_FCI, CURRENT_KEY, ENVELOPE, IDENTIFIER, LEGACY_FCI, LEGACY_KEY } from './schema.js';
import { checkContractIdBytes, isDamlName, isPackageId, isPackageName, isPartyId } from './validate.js';
import { writeValueInto } from './value-encoder.js';
import { WireWriter } from './wire-writer.js';

function bad(what: string, expected: string, got: unknown): never {
  throw new CodecError('ENCODE_INVALID_INPUT', `"${what}" expected ${expected}, got ${formatGot(got)}`);
}

/** Sorted, de-duplicated, validated party list. */
function partySet(list: readonly string[] | undefined, what: string): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) bad(what, 'an array of party ids', list);
  for (const p of list) if (typeof p !== 'string' || !isPartyId(p)) bad(what, 'party ids', p);
  const sorted = [...new Set(list)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted;
}

function writeIdentifier(w: WireWriter, field: number, t: TemplateId): void {
  if (t === null || typeof t !== 'object') bad('templateId', 'a TemplateId', t);
  if (typeof t.packageId !== 'string' || !isPackageId(t.packageId)) {
    bad('templateId.packageId', '64 lower-case hex chars', t.packageId);
  }
  if (!Array.isArray(t.module) || t.module.length === 0 || !t.module.every(isDamlName)) {
    bad('templateId.module', 'non-empty Daml name segments', t.module);
  }
  if (!Array.isArray(t.entity) || t.entity.length === 0 || !t.entity.every(isDamlName)) {
    bad('templateId.entity', 'non-empty Daml name segments', t.entity);
  }
  const mark = w.beginMessage(field);
  w.writeStringField(IDENTIFIER.packageId, t.packageId);
  for (const s of t.module) w.writeStringField(IDENTIFIER.moduleName, s);
  for (const s of t.entity) w.writeStringField(IDENTIFIER.name, s);
  w.endMessage(mark);
}

/** Encodes a contract as created_event_blob bytes (layout from `contract.layout`). */
export function encodeCreatedEventBlob(contract: DecodedContract): Uint8Array {
  return guardEncode(() => encodeUnguarded(contract));
}

function encodeUnguarded(contract: DecodedContract): Uint8Array {
  if (contract === null || typeof contract !== 'object') bad('contract', 'a DecodedContract', contract);
  const version = contract.serializationVersion;
  if (typeof version !== 'string' || !SUPPORTED_SERIALIZATION_VERSIONS.includes(version)) {
    bad('serializationVersion', `one of ${SUPPORTED_SERIALIZATION_VERSIONS.join(', ')}`, version);
  }
  const legacy = contract.layout === 'legacy';
  if (!legacy && contract.layout !== 'current') bad('layout', "'current' or 'legacy'", contract.layout);
  if (!(contract.contractId instanceof Uint8Array)) bad('contractId', 'bytes', contract.contractId);
  const cidRule = checkContractIdBytes(contract.contractId);
  if (cidRule !== null) bad('contractId', cidRule, contract.contractId);
  const packageName = contract.packageName ?? '';
  if (!(legacy && packageName === '') && (typeof packageName !== 'string' || !isPackageName(packageName))) {
    bad('packageName', '[A-Za-z0-9._-]{1,255}', packageName);
  }
  if (typeof contract.createdAt !== 'bigint') bad('createdAt', 'a bigint (µs)', contract.createdAt);
  const auth = contract.authenticationData?.raw ?? new Uint8Array(0);
  if (!(auth instanceof Uint8Array)) bad('authenticationData.raw', 'bytes', auth);

  const signatories = partySet(contract.nonMaintainerSignatories, 'nonMaintainerSignatories');
  const observers = partySet(contract.nonSignatoryStakeholders, 'nonSignatoryStakeholders');
  const key = contract.key ?? null;
  const maintainers = key === null ? [] : partySet(key.maintainers, 'key.maintainers');
  if (signatories.length + maintainers.length === 0) bad('signatories', 'at least one party', []);

  const w = new WireWriter(1024);
  w.writeStringField(ENVELOPE.version, version);
  const payload = w.beginMessage(ENVELOPE.payload);
  const valueOptions = legacy
    ? { layout: 'legacy' as const, legacyContractIdAsText: version !== 'dev' }
    : { layout: 'current' as const };
  if (legacy) {
    const F = LEGACY_FCI;
    w.writeBytesField(F.contractId, contract.contractId);
    writeIdentifier(w, F.templateId, contract.templateId);
    const arg = w.beginMessage(F.createArg);
    writeValueInto(w, contract.createArg, valueOptions);
    w.endMessage(arg);
    if (key !== null) {
      const km = w.beginMessage(F.key);
      for (const m of maintainers) w.writeStringField(LEGACY_KEY.maintainers, m);
      const kv = w.beginMessage(LEGACY_KEY.keyUnversioned);
      writeValueInto(w, key.key, valueOptions);
      w.endMessage(kv);
      w.endMessage(km);
    }
    for (const p of signatories) w.writeStringField(F.nonMaintainerSignatories, p);
    for (const p of observers) w.writeStringField(F.nonSignatoryStakeholders, p);
    if (contract.createdAt !== 0n) w.writeSfixed64Field(F.createdAt, contract.createdAt);
    if (auth.length > 0) w.writeBytesField(F.cantonData, auth);
    if (packageName !== '') w.writeStringField(F.packageName, packageName);
  } else {
    const F = CURRENT_FCI;
    w.writeBytesField(F.contractId, contract.contractId);
    w.writeStringField(F.packageName, packageName);
    writeIdentifier(w, F.templateId, contract.templateId);
    const arg = w.beginMessage(F.createArg);
    writeValueInto(w, contract.createArg, valueOptions);
    w.endMessage(arg);
    for (const p of signatories) w.writeStringField(F.nonMaintainerSignatories, p);
    for (const p of observers) w.writeStringField(F.nonSignatoryStakeholders, p);
    if (contract.createdAt !== 0n) w.writeSfixed64Field(F.createdAt, contract.createdAt);
    if (auth.length > 0) w.writeBytesField(F.authenticationData, auth);
    const versions = contract.packageVersion ?? [];
    if (versions.length > 0) {
      const pv = w.beginMessage(F.packageVersion);
      for (const n of versions) {
        if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) bad('packageVersion', 'non-negative int32s', n);
        w.writeVarint(n);
      }
      w.endMessage(pv);
    }
    if (key !== null) {
      const km = w.beginMessage(F.key);
      const kv = w.beginMessage(CURRENT_KEY.key);
      writeValueInto(w, key.key, valueOptions);
      w.endMessage(kv);
      for (const m of maintainers) w.writeStringField(CURRENT_KEY.maintainers, m);
      if (key.hash !== null && key.hash.length > 0) w.writeBytesField(CURRENT_KEY.hash, key.hash);
      w.endMessage(km);
    }
  }
  w.endMessage(payload);
  return w.finish();
}
