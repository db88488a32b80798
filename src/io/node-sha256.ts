/** node:crypto implementation of the core `Sha256` seam (src/core/hash/sha256.ts). */
import { hash } from 'node:crypto';
import type { Sha256 } from '../core/hash/sha256.js';

export const sha256Node: Sha256 = (data) => {
  const b = hash('sha256', data, 'buffer') as Buffer;
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
};
