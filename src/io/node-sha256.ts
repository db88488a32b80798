/**
 * node:crypto implementation of the core `Sha256` seam (src/core/hash/sha256.ts).
 * The digest is requested as a 'binary' (latin1) string and copied into a fresh Uint8Array: measured ~1.4×
 * faster per call than a 'buffer' digest (which allocates a pooled Buffer view per call).
 */
import { hash } from 'node:crypto';
import type { Sha256, Sha256Binary } from '../core/hash/sha256.js';

export const sha256Node: Sha256 = (data) => {
  const s = hash('sha256', data, 'binary');
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = s.charCodeAt(i);
  return out;
};

/** node:crypto's one-shot hash with a binary (latin1) string digest: no buffer per call. */
export const sha256NodeBinary: Sha256Binary = (data) => hash('sha256', data, 'binary');
