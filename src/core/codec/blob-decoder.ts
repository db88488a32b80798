/**
 * Decodes a `created_event_blob` (docs/protocol/blob-format.md §2, §4, §6; docs/protocol/contract-id.md §4):
 * the `Versioned` envelope, layout detection (§2.4: payload field 2 starting with 0x0a = an
 * Identifier = legacy), then the `FatContractInstance` of that layout and its `create_arg` Value.
 * Derived: signatories = non_maintainer_signatories ∪ key maintainers; stakeholders = signatories ∪
 * non_signatory_stakeholders (each pair must be disjoint; signatories non-empty).
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { copyBytes } from './byte-pool.js';
import { parseBase64 } from './bytes.js';
import type { BlobLayout, DecodedContract, UnknownFieldReport } from './contract.js';
import { CURRENT_FCI_LAYOUT, LEGACY_FCI_LAYOUT, readFatContract } from './fat-contract-decoder.js';
import { guardDecode } from './guard.js';
import { type DecodeOptions, resolveDecodeOptions } from './limits.js';
import { ENVELOPE } from './schema.js';
import { WIRE_LEN, WireReader } from './wire-reader.js';

/** `Versioned.version` strings a decoder accepts, and the layout each implies (null = either). */
const VERSIONS: Readonly<Record<string, BlobLayout | null>> = {
  '14': 'legacy',
  '15': 'legacy',
  '17': 'legacy',
  dev: null,
  '2.1': 'current',
  '2': 'current',
};

/** Accepted serialization version strings (docs/protocol/blob-format.md §2.2). */
export const SUPPORTED_SERIALIZATION_VERSIONS: readonly string[] = Object.keys(VERSIONS);

/**
 * Decodes a created_event_blob given as bytes or as standard base64 text.
 * Throws `CodecError` (stable codes, see src/errors/codec.ts) on any malformed input.
 */
export function decodeCreatedEventBlob(input: Uint8Array | string, options?: DecodeOptions): DecodedContract {
  return guardDecode(() => decodeBlob(input, options).contract);
}

function decodeBlob(
  input: Uint8Array | string,
  options: DecodeOptions | undefined,
): { contract: DecodedContract; bytes: Uint8Array; maxDepth: number } {
  const opts = resolveDecodeOptions(options);
  let bytes: Uint8Array;
  if (typeof input === 'string')
    bytes = parseBase64(input, 'created_event_blob', opts.maxBytes, opts.scratch?.pool ?? null);
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
  if (bytes === input && opts.copyInput) bytes = copyBytes(bytes, opts.scratch?.pool ?? null);
  const unknown: UnknownFieldReport[] | null = opts.unknownFields === 'report' ? [] : null;
  const r = new WireReader(bytes, unknown, opts.maxBytes, opts.scratch);
  const contract = readEnvelope(r, opts.maxDepth);
  return {
    contract: unknown === null ? contract : { ...contract, unknownFields: unknown },
    bytes,
    maxDepth: opts.maxDepth,
  };
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
  const fci = layout === 'current' ? CURRENT_FCI_LAYOUT : LEGACY_FCI_LAYOUT;
  return readFatContract(r, payload[1], version, maxDepth, fci);
}

/**
 * docs/protocol/blob-format.md §2.4: in the payload, field 2 is the package name (current) or an Identifier
 * (legacy), whose first byte is the package_id tag 0x0a. Malformed payloads default to 'current'
 * and fail in the real decode.
 */
function detectLayout(buf: Uint8Array, start: number, end: number): BlobLayout {
  const r = new WireReader(buf, [], end - start);
  r.pos = start;
  try {
    for (let tag = r.nextTag(end); tag !== 0; tag = r.nextTag(end)) {
      const o = r.tagAt;
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
