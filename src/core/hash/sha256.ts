/**
 * The SHA-256 seam. Core code never imports node:crypto; it takes a `Sha256` function.
 * `sha256Noble` (pure JS, @noble/hashes) is the portable default; Node entry points pass
 * `sha256Node` from src/io/node-sha256.ts (node:crypto, ~5x faster on 1.5 KB inputs).
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** One-shot SHA-256 of the whole input; returns 32 bytes. */
export type Sha256 = (data: Uint8Array) => Uint8Array;

export const sha256Noble: Sha256 = (data) => sha256(data);
