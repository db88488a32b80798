/**
 * Canton V1 contract IDs: parsing and suffix construction (docs/protocol/contract-id.md §1 steps 1–2,
 * §2.1, §2.2, §3). Shape: `00 ‖ discriminator[32] ‖ ca1x ‖ 12 20 ‖ unicum[32]` = 69 bytes, written
 * as 138 lower-case hex characters (Canton rejects upper case).
 */
import { formatGot } from '../../errors/base.js';
import { HashError } from '../../errors/hash.js';
import type { ContractIdVersion } from './contract-id-version.js';
import { VERSION_PREFIX } from './contract-id-version.js';
import { hexEqualsBytes, lowerHexToBytes } from './hex.js';

export const CONTRACT_ID_BYTES = 69;
const CONTRACT_ID_HEX_LENGTH = 138;

export interface ParsedContractId {
  /** the canonical lower-case hex */
  readonly hex: string;
  readonly bytes: Uint8Array;
  readonly discriminator: Uint8Array;
  readonly version: ContractIdVersion;
  /** `ca10` | `ca11` | `ca12` */
  readonly versionPrefixHex: string;
  /** versionPrefix ‖ 12 20 ‖ unicum (36 bytes) */
  readonly suffix: Uint8Array;
  readonly unicum: Uint8Array;
}

const VERSION_BY_PREFIX: Readonly<Record<string, ContractIdVersion>> = {
  ca10: 'v10',
  ca11: 'v11',
  ca12: 'v12',
};

/** `hex` has the canonical V1 shape: 138 chars, `00` ‖ 64 hex ‖ 4-char prefix ‖ `1220` ‖ … (not yet checked: hex digits, the prefix). */
export function isCanonicalV1IdHex(hex: string): boolean {
  return hex.length === CONTRACT_ID_HEX_LENGTH && hex.startsWith('00') && hex.startsWith('1220', 70);
}

/** The version of a V1 contract ID from its hex (`00` ‖ 64 hex ‖ `ca1N…`), or null. */
export function versionOfIdHex(id: string): ContractIdVersion | null {
  if (id.length !== CONTRACT_ID_HEX_LENGTH || id.charCodeAt(66) !== 0x63 || id.charCodeAt(67) !== 0x61)
    return null;
  if (id.charCodeAt(68) !== 0x31) return null;
  const v = id.charCodeAt(69);
  return v === 0x30 ? 'v10' : v === 0x31 ? 'v11' : v === 0x32 ? 'v12' : null;
}

/**
 * Parses a published contract ID. Throws HashError CONTRACT_ID_MALFORMED (not lower-case hex,
 * wrong length, no suffix, not a SHA-256 multihash) or UNSUPPORTED_CONTRACT_ID_VERSION (V2 `01…`
 * IDs, Canton 2.x ca00–ca03, any other prefix).
 */
export function parseContractId(hex: string): ParsedContractId {
  // Fast path: the canonical shape, one pass; the sub-views are created on demand.
  if (typeof hex === 'string' && isCanonicalV1IdHex(hex)) {
    const prefix = hex.slice(66, 70);
    const version = VERSION_BY_PREFIX[prefix];
    const bytes = version === undefined ? null : lowerHexToBytes(hex);
    if (version !== undefined && bytes !== null) return new ParsedId(hex, bytes, version, prefix);
  }
  return parseContractIdSlow(hex);
}

/**
 * The verifier's fast path: when `hex` is a canonical V1 ID (ca10/ca11/ca12) whose bytes are
 * exactly `bytes` (the blob's embedded ID), returns it parsed with `bytes` as its bytes (read
 * only) without decoding the hex; otherwise null (then use `parseContractId`).
 */
export function parseContractIdEqualTo(hex: string, bytes: Uint8Array): ParsedContractId | null {
  if (typeof hex !== 'string' || bytes.length !== CONTRACT_ID_BYTES || !isCanonicalV1IdHex(hex)) return null;
  const prefix = hex.slice(66, 70);
  const version = VERSION_BY_PREFIX[prefix];
  if (version === undefined || !hexEqualsBytes(hex, 0, bytes)) return null;
  return new ParsedId(hex, bytes, version, prefix);
}

function parseContractIdSlow(hex: string): ParsedContractId {
  const field = '"contractId"';
  if (typeof hex !== 'string') {
    throw new HashError('CONTRACT_ID_MALFORMED', `${field} expected a hex string, got ${formatGot(hex)}`);
  }
  if (/[A-F]/.test(hex) && /^[0-9a-fA-F]*$/.test(hex)) {
    throw new HashError(
      'CONTRACT_ID_MALFORMED',
      `${field} expected lower-case hex (Canton rejects upper case), got ${formatGot(hex)}`,
    );
  }
  if (!/^[0-9a-f]*$/.test(hex)) {
    throw new HashError('CONTRACT_ID_MALFORMED', `${field} expected lower-case hex, got ${formatGot(hex)}`);
  }
  if (hex.startsWith('01')) {
    throw new HashError(
      'UNSUPPORTED_CONTRACT_ID_VERSION',
      `${field} expected a Canton V1 contract id (prefix 00), got a Daml-LF V2 contract id (prefix 01), which Canton does not authenticate yet`,
    );
  }
  if (!hex.startsWith('00')) {
    throw new HashError(
      'CONTRACT_ID_MALFORMED',
      `${field} expected the V1 prefix 00, got ${formatGot(hex.slice(0, 2))}`,
    );
  }
  if (hex.length === 66) {
    throw new HashError(
      'CONTRACT_ID_MALFORMED',
      `${field} expected a suffixed (global) contract id of ${CONTRACT_ID_HEX_LENGTH} hex chars, got a local id without suffix (66 hex chars)`,
    );
  }
  if (hex.length >= 70 && hex.length !== CONTRACT_ID_HEX_LENGTH) {
    const prefix = hex.slice(66, 70);
    if (/^ca0[0-3]$/.test(prefix)) throw unsupportedPrefix(prefix);
  }
  if (hex.length !== CONTRACT_ID_HEX_LENGTH) {
    throw new HashError(
      'CONTRACT_ID_MALFORMED',
      `${field} expected ${CONTRACT_ID_HEX_LENGTH} hex chars, got ${hex.length}`,
    );
  }
  const prefix = hex.slice(66, 70);
  const version = VERSION_BY_PREFIX[prefix];
  if (version === undefined) throw unsupportedPrefix(prefix);
  if (hex.slice(70, 74) !== '1220') {
    throw new HashError(
      'CONTRACT_ID_MALFORMED',
      `${field} expected a SHA-256 multihash (1220) after the version prefix, got ${formatGot(hex.slice(70, 74))}`,
    );
  }
  return new ParsedId(hex, lowerHexToBytes(hex) as Uint8Array, version, prefix);
}

class ParsedId implements ParsedContractId {
  constructor(
    readonly hex: string,
    readonly bytes: Uint8Array,
    readonly version: ContractIdVersion,
    readonly versionPrefixHex: string,
  ) {}
  get discriminator(): Uint8Array {
    return this.bytes.subarray(1, 33);
  }
  get suffix(): Uint8Array {
    return this.bytes.subarray(33);
  }
  get unicum(): Uint8Array {
    return this.bytes.subarray(37);
  }
}

function unsupportedPrefix(prefix: string): HashError {
  const which = /^ca0[0-3]$/.test(prefix)
    ? 'a Canton 2.x contract id version'
    : 'an unknown contract id version';
  return new HashError(
    'UNSUPPORTED_CONTRACT_ID_VERSION',
    `"contractId" expected suffix version ca10, ca11 or ca12, got ${formatGot(prefix)} (${which})`,
    { details: { versionPrefix: prefix } },
  );
}

/** Throws HashError SALT_INVALID unless `bytes` (a salt, discriminator, unicum or hash) is 32 bytes long. */
export function assert32Bytes(bytes: Uint8Array, name: string): void {
  if (bytes.length !== 32) {
    throw new HashError('SALT_INVALID', `"${name}" expected 32 bytes, got ${bytes.length} bytes`);
  }
}

/** suffix = versionPrefix ‖ 12 20 ‖ unicum (36 bytes). */
export function computeContractIdSuffix(version: ContractIdVersion, unicum: Uint8Array): Uint8Array {
  assert32Bytes(unicum, 'unicum');
  const [a, b] = VERSION_PREFIX[version];
  const out = new Uint8Array(36);
  out[0] = a;
  out[1] = b;
  out[2] = 0x12;
  out[3] = 0x20;
  out.set(unicum, 4);
  return out;
}

/** The 69 contract-ID bytes 00 ‖ discriminator ‖ suffix. */
export function computeContractIdBytes(discriminator: Uint8Array, suffix: Uint8Array): Uint8Array {
  assert32Bytes(discriminator, 'discriminator');
  const out = new Uint8Array(1 + 32 + suffix.length);
  out.set(discriminator, 1);
  out.set(suffix, 33);
  return out;
}
