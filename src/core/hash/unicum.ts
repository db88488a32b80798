/**
 * The unicum (docs/protocol/contract-id.md §5), identical for V10/V11/V12:
 *
 *   SHA256( i32(29) ‖ salt[32] ‖ i64(epochSecond) ‖ i32(nano)
 *           ‖ lp(seq(sorted signatories)) ‖ lp(seq(sorted stakeholders − signatories))
 *           ‖ (00 | 01 ‖ keyHash[32]) ‖ lp(00 | 01 ‖ seq(sorted maintainers)) ‖ contractHash[32] )
 *
 * `created_at` micros → Instant with floor semantics: epochSecond = floor(µs / 1e6),
 * nano = (µs mod 1e6) · 1000 with a non-negative modulus. Party sets are de-duplicated and sorted
 * by UTF-16 code unit (Scala String order).
 */

import { HashError } from '../../errors/hash.js';
import type { PartyId } from '../codec/contract.js';
import { assert32Bytes } from './contract-id.js';
import { UNICUM_PURPOSE } from './contract-id-version.js';
import { HashBuilder } from './hash-builder.js';
import { HashContext } from './hash-context.js';
import type { Sha256 } from './sha256.js';
import { sha256Noble } from './sha256.js';

export interface UnicumInput {
  /** 32-byte contract salt */
  readonly salt: Uint8Array;
  /** ledger time of creation, µs since the epoch */
  readonly createdAt: bigint;
  readonly signatories: readonly PartyId[];
  /** all stakeholders (signatories are removed here) or only the non-signatory ones */
  readonly stakeholders: readonly PartyId[];
  /** contract key hash and maintainers; null for LF 2.1 contracts (no keys) */
  readonly key: { readonly hash: Uint8Array | null; readonly maintainers: readonly PartyId[] } | null;
  /** 32-byte contract hash (§6) */
  readonly contractHash: Uint8Array;
}

/** Sorted (UTF-16 code unit order), de-duplicated; returns `ps` itself when it already is. */
export function sortParties(ps: readonly PartyId[]): readonly PartyId[] {
  let sorted = true;
  for (let i = 1; i < ps.length; i++) {
    if (!((ps[i - 1] as string) < (ps[i] as string))) {
      sorted = false;
      break;
    }
  }
  if (sorted) return ps;
  const s = [...new Set(ps)];
  s.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s;
}

/** `ps` minus the members of `remove` (small lists: linear scans, no allocation when nothing is removed). */
function withoutParties(ps: readonly PartyId[], remove: readonly PartyId[]): readonly PartyId[] {
  let out: PartyId[] | null = null;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as PartyId;
    if (remove.includes(p)) {
      if (out === null) out = ps.slice(0, i);
    } else if (out !== null) out.push(p);
  }
  return out ?? ps;
}

function writeSeqLp(b: HashBuilder, parties: readonly string[], leadingByte: number | null): void {
  const lenAt = b.length;
  b.i32(0); // placeholder for lp length
  const start = b.length;
  if (leadingByte !== null) b.byte(leadingByte);
  b.i32(parties.length);
  for (const p of parties) b.str(p);
  b.patchI32(lenAt, b.length - start);
}

/** Writes the unicum preimage into `b`. Throws HashError SALT_INVALID / CONTRACT_KEY_HASH_MISSING. */
function encodeUnicumPreimage(b: HashBuilder, input: UnicumInput): void {
  assert32Bytes(input.salt, 'salt');
  assert32Bytes(input.contractHash, 'contractHash');
  const micros = input.createdAt;
  let secs = micros / 1_000_000n;
  let rem = micros % 1_000_000n;
  if (rem < 0n) {
    rem += 1_000_000n;
    secs -= 1n;
  }
  const sigs = sortParties(input.signatories);
  const nonSig = sortParties(withoutParties(input.stakeholders, sigs));
  b.i32(UNICUM_PURPOSE)
    .raw(input.salt)
    .i64(secs)
    .i32(Number(rem) * 1000);
  writeSeqLp(b, sigs, null);
  writeSeqLp(b, nonSig, null);
  if (input.key === null) {
    b.byte(0);
    b.i32(1).byte(0);
  } else {
    if (input.key.hash === null || input.key.hash.length !== 32) {
      throw new HashError(
        'CONTRACT_KEY_HASH_MISSING',
        '"key.hash" expected the 32-byte contract key hash (blob version "2"), got none',
      );
    }
    b.byte(1).raw(input.key.hash);
    writeSeqLp(b, sortParties(input.key.maintainers), 1);
  }
  b.raw(input.contractHash);
}

/** The unicum preimage bytes (a fresh copy). */
export function computeUnicumPreimage(input: UnicumInput): Uint8Array {
  const b = new HashBuilder(512);
  encodeUnicumPreimage(b, input);
  return b.bytes().slice();
}

/** unicum = SHA-256 of the preimage (32 bytes; `context`: the builder repeated hashes share, fresh when absent). */
export function computeUnicum(
  input: UnicumInput,
  sha256: Sha256 = sha256Noble,
  context: HashContext = new HashContext(),
): Uint8Array {
  const b = context.builder.reset();
  encodeUnicumPreimage(b, input);
  return sha256(b.bytes());
}
