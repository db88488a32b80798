/**
 * The SHA-256 seam. Core code never imports node:crypto; it takes a `Sha256` function.
 * `sha256Noble` (pure JS, @noble/hashes) is the portable default; Node entry points pass
 * `sha256Node` from src/io/node-sha256.ts (node:crypto, ~5x faster on 1.5 KB inputs).
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** One-shot SHA-256 of the whole input; returns 32 bytes. */
export type Sha256 = (data: Uint8Array) => Uint8Array;

export const sha256Noble: Sha256 = (data) => sha256(data);

/**
 * SHA-256 with the digest as a 32-char binary string (char i = byte i, each < 256): what a native
 * one-shot hash returns fastest (src/io/node-sha256.ts), with no byte array allocated per call.
 */
export type Sha256Binary = (data: Uint8Array) => string;

/** A `Sha256Binary` from a `Sha256` (for callers without a native one). */
export function binarySha256(sha256: Sha256): Sha256Binary {
  return (data) => String.fromCharCode(...sha256(data));
}
