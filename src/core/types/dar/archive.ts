/**
 * The `.dalf` envelope (docs/protocol/dar-format.md §3): `Archive{hash_function=1, payload=3, hash=4}`
 * and `ArchivePayload{minor=3, patch=5, daml_lf_1=2 | daml_lf_2=4}`. The package id is the
 * lower-case hex SHA-256 of the raw `payload` bytes, computed here; `Archive.hash` is only a
 * cross-check (a mismatch is an error; absence leaves the id unverified against a declaration).
 */
import { DarError } from '../../../errors/dar.js';
import type { Sha256 } from '../../hash/sha256.js';
import { assertAtEnd, createWireReader, readBytes, readString, skipField, withWireErrors } from './wire.js';

export interface DecodedArchive {
  /** hex SHA-256 of `payload` */
  readonly packageId: string;
  /** Archive.hash as declared, or null when absent */
  readonly declaredHash: string | null;
  /** true when the declared hash is present and equals the computed id */
  readonly idVerified: boolean;
  /** the ArchivePayload bytes (a view, not a copy) */
  readonly payload: Uint8Array;
}

export interface DecodedArchivePayload {
  /** "2.1" or "2.2" */
  readonly lfVersion: string;
  readonly minor: string;
  readonly patch: number;
  /** the daml_lf_2 Package bytes */
  readonly lf2: Uint8Array;
}

/** Decodes a `.dalf` (serialized Archive) and computes its package id. */
export function decodeArchive(bytes: Uint8Array, sha256: Sha256): DecodedArchive {
  const { payload, declaredHash } = withWireErrors('Archive', () => {
    const r = createWireReader(bytes);
    const end = bytes.length;
    let payload: Uint8Array | null = null;
    let declaredHash: string | null = null;
    while (r.pos < end) {
      const tag = r.uint32();
      if (tag === 1 << 3) {
        const f = r.uint32();
        if (f !== 0) {
          throw new DarError(
            'DAR_UNSUPPORTED_HASH_FUNCTION',
            `"Archive.hash_function" expected 0 (SHA256), got ${f}`,
          );
        }
      } else if (tag === ((3 << 3) | 2)) payload = readBytes(r, end, 'Archive.payload');
      else if (tag === ((4 << 3) | 2)) declaredHash = readString(r, end, 'Archive.hash');
      else skipField(r, tag & 7, 'Archive');
    }
    assertAtEnd(r, end, 'Archive');
    if (payload === null) throw new DarError('DAR_ARCHIVE_MALFORMED', '"Archive.payload" expected, got none');
    return { payload, declaredHash: declaredHash === '' ? null : declaredHash };
  });
  const packageId = computePackageId(payload, sha256);
  if (declaredHash !== null && declaredHash !== packageId) {
    throw new DarError(
      'DAR_PACKAGE_HASH_MISMATCH',
      `"Archive.hash" expected the SHA-256 of the payload ${packageId}, got ${JSON.stringify(declaredHash.slice(0, 80))}`,
      { details: { computed: packageId, declared: declaredHash } },
    );
  }
  return { packageId, declaredHash, idVerified: declaredHash !== null, payload };
}

/** Package id = lower-case hex SHA-256 of the ArchivePayload bytes exactly as stored. */
export function computePackageId(payload: Uint8Array, sha256: Sha256): string {
  const d = sha256(payload);
  let s = '';
  for (let i = 0; i < d.length; i++) s += HEX[d[i]!]!;
  return s;
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Decodes an ArchivePayload; only LF 2.1 and 2.2 with patch 0 are accepted. */
export function decodeArchivePayload(payload: Uint8Array): DecodedArchivePayload {
  return withWireErrors('ArchivePayload', () => {
    const r = createWireReader(payload);
    const end = payload.length;
    let minor = '';
    let patch = 0;
    let lf1 = false;
    let lf2: Uint8Array | null = null;
    const unknownMajors: number[] = [];
    while (r.pos < end) {
      const tag = r.uint32();
      const field = tag >>> 3;
      if (tag === ((3 << 3) | 2)) minor = readString(r, end, 'ArchivePayload.minor');
      else if (tag === 5 << 3) patch = r.int32();
      else if (tag === ((2 << 3) | 2)) {
        lf1 = true;
        lf2 = null;
        skipField(r, 2, 'ArchivePayload.daml_lf_1');
      } else if (tag === ((4 << 3) | 2)) {
        lf1 = false;
        lf2 = readBytes(r, end, 'ArchivePayload.daml_lf_2');
      } else {
        if (field === 1 || field === 9999 || (tag & 7) === 2) unknownMajors.push(field);
        skipField(r, tag & 7, 'ArchivePayload');
      }
    }
    assertAtEnd(r, end, 'ArchivePayload');
    if (lf1) {
      throw new DarError(
        'DAR_UNSUPPORTED_LF_VERSION',
        `Daml-LF major version expected 2, got 1 (minor ${JSON.stringify(minor)}): LF 1.x packages (Canton 2.x) are not supported`,
      );
    }
    if (lf2 === null) {
      throw new DarError(
        'DAR_UNSUPPORTED_LF_VERSION',
        `Daml-LF major version expected 2 (daml_lf_2 = field 4), got ${unknownMajors.length > 0 ? `field ${unknownMajors.join(', ')}` : 'no package'}`,
      );
    }
    if (minor !== '1' && minor !== '2') {
      throw new DarError(
        'DAR_UNSUPPORTED_LF_VERSION',
        `Daml-LF 2 minor expected "1" or "2", got ${JSON.stringify(minor)}`,
      );
    }
    if (patch !== 0) {
      throw new DarError('DAR_UNSUPPORTED_LF_VERSION', `"ArchivePayload.patch" expected 0, got ${patch}`);
    }
    return { lfVersion: `2.${minor}`, minor, patch, lf2 };
  });
}
