/**
 * FatContractInstance field 8 (`canton_data` / `authentication_data`) for V1 contract ids
 * (docs/protocol/blob-format.md §6; docs/protocol/contract-id.md §4): UntypedVersionedMessage{ data = 1;
 * version = 2 } → ContractAuthenticationData{ contract_salt = 1 } → Salt{ hmac = 1; salt = 2 }.
 * The raw bytes are always kept (they are re-encoded verbatim); the salt is parsed when possible.
 */
import { CodecError } from '../../errors/codec.js';
import type { AuthenticationData, Salt } from './contract.js';
import { AUTH } from './schema.js';
import { WIRE_LEN, WIRE_VARINT, WireReader } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';

/** UntypedVersionedMessage.version written by Canton 3.x for V1 contract ids. */
const AUTHENTICATION_DATA_VERSION = 30;
const SALT_LENGTH = 32;

/**
 * Parses field 8. For a V1 contract id (first byte 0x00) the wrapper is parsed strictly; when it
 * does not parse (or the id is V2, whose field 8 is a raw v31 message) `salt` is null and
 * `version` 0. Never throws for content problems: the bytes are opaque to Daml-LF.
 */
export function decodeAuthenticationData(raw: Uint8Array, contractId: Uint8Array): AuthenticationData {
  if (contractId[0] !== 0x00 || raw.length === 0) return { raw, version: 0, salt: null };
  try {
    return parseWrapper(raw);
  } catch (e) {
    if (e instanceof CodecError) return { raw, version: 0, salt: null };
    throw e;
  }
}

function parseWrapper(raw: Uint8Array): AuthenticationData {
  const r = new WireReader(raw, null, raw.length);
  const end = raw.length;
  let version = 0;
  let data: [number, number] | null = null;
  for (let tag = r.nextTag(end); tag !== 0; tag = r.nextTag(end)) {
    const o = r.tagAt;
    const f = tag >>> 3;
    if (f === AUTH.wrapperData && data === null) {
      r.expectWire(tag, WIRE_LEN, 'UntypedVersionedMessage.data', o);
      const stop = r.readLength(end, 'UntypedVersionedMessage.data');
      data = [r.pos, stop];
      r.pos = stop;
    } else if (f === AUTH.wrapperVersion) {
      r.expectWire(tag, WIRE_VARINT, 'UntypedVersionedMessage.version', o);
      version = r.readInt32(end, 'UntypedVersionedMessage.version');
    } else r.unknownField(tag, end, 'UntypedVersionedMessage', o);
  }
  if (data === null) return { raw, version, salt: null };
  r.pos = data[0];
  const dEnd = data[1];
  let salt: Salt | null = null;
  for (let tag = r.nextTag(dEnd); tag !== 0; tag = r.nextTag(dEnd)) {
    const o = r.tagAt;
    if (tag >>> 3 === AUTH.contractSalt && salt === null) {
      r.expectWire(tag, WIRE_LEN, 'ContractAuthenticationData.contract_salt', o);
      const sEnd = r.readLength(dEnd, 'ContractAuthenticationData.contract_salt');
      let algorithm = 0;
      let bytes: Uint8Array | null = null;
      for (let t2 = r.nextTag(sEnd); t2 !== 0; t2 = r.nextTag(sEnd)) {
        const o2 = r.tagAt;
        const f2 = t2 >>> 3;
        if (f2 === AUTH.saltHmac) {
          r.expectWire(t2, WIRE_VARINT, 'Salt.hmac', o2);
          algorithm = r.readInt32(sEnd, 'Salt.hmac');
        } else if (f2 === AUTH.saltBytes) {
          r.expectWire(t2, WIRE_LEN, 'Salt.salt', o2);
          bytes = r.readBytes(sEnd, 'Salt.salt');
        } else r.unknownField(t2, sEnd, 'Salt', o2);
      }
      salt = bytes === null ? null : { algorithm, bytes };
    } else r.unknownField(tag, dEnd, 'ContractAuthenticationData', o);
  }
  return { raw, version, salt };
}

/**
 * Builds the 42-byte authentication data Canton 3.x writes for a V1 contract id:
 * `0a 26 0a 24 08 01 12 20 <salt32> 10 1e` (HMAC-SHA256, version 30).
 */
export function encodeAuthenticationData(salt: Uint8Array): Uint8Array {
  if (!(salt instanceof Uint8Array) || salt.length !== SALT_LENGTH) {
    const got = salt instanceof Uint8Array ? `${salt.length} bytes` : typeof salt;
    throw new CodecError('ENCODE_INVALID_INPUT', `"salt" expected ${SALT_LENGTH} bytes, got ${got}`);
  }
  const w = new WireWriter(48);
  const outer = w.beginMessage(AUTH.wrapperData);
  const cad = w.beginMessage(AUTH.contractSalt);
  w.writeVarintField(AUTH.saltHmac, AUTH.hmacSha256);
  w.writeBytesField(AUTH.saltBytes, salt);
  w.endMessage(cad);
  w.endMessage(outer);
  w.writeVarintField(AUTH.wrapperVersion, AUTHENTICATION_DATA_VERSION);
  return w.finish();
}
