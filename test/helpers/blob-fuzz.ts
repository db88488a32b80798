/**
 * Mutation fuzzing of real blobs (docs/architecture.md "Code style": hostile input): bit flips, byte
 * inserts and deletes, truncations, and length-prefix overwrites applied to the real vectors. Every
 * decode must either succeed or throw a CodecError — never anything else, never hang.
 */
import fc from 'fast-check';
import { decodeCreatedEventBlob, encodeCreatedEventBlob, parseBase64 } from '../../src/core/codec/index.js';
import { CodecError } from '../../src/errors/codec.js';
import { loadContractIdVectors } from './vectors.js';

export const realBlobs: Uint8Array[] = loadContractIdVectors().blobVectors.map((v) =>
  parseBase64(v.createdEventBlobBase64),
);

type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'insert'; at: number; byte: number }
  | { op: 'delete'; at: number }
  | { op: 'truncate'; at: number }
  | { op: 'set'; at: number; byte: number };

export const arbMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('set' as const),
    at: fc.nat(),
    byte: fc.constantFrom(0x00, 0x7f, 0x80, 0xff, 0x0a, 0x12),
  }),
);

export function mutate(blob: Uint8Array, muts: readonly Mutation[]): Uint8Array {
  let b = Array.from(blob);
  for (const m of muts) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    if (m.op === 'flip') b[at] = b[at]! ^ (1 << m.bit);
    else if (m.op === 'insert') b.splice(at, 0, m.byte);
    else if (m.op === 'delete') b.splice(at, 1);
    else if (m.op === 'truncate') b = b.slice(0, at);
    else b[at] = m.byte;
  }
  return Uint8Array.from(b);
}

/** A mutated real blob with the index of the vector it came from. */
export const arbMutatedVector: fc.Arbitrary<{ index: number; blob: Uint8Array }> = fc
  .tuple(
    fc.integer({ min: 0, max: realBlobs.length - 1 }),
    fc.array(arbMutation, { minLength: 1, maxLength: 4 }),
  )
  .map(([index, muts]) => ({ index, blob: mutate(realBlobs[index]!, muts) }));

const arbMutatedBlob: fc.Arbitrary<Uint8Array> = arbMutatedVector.map((m) => m.blob);

export interface FuzzStats {
  decoded: number;
  rejected: Record<string, number>;
}

/** Runs `numRuns` mutated blobs; throws on any non-CodecError outcome. */
export function runBlobFuzz(numRuns: number, seed?: number): FuzzStats {
  const stats: FuzzStats = { decoded: 0, rejected: {} };
  fc.assert(
    fc.property(arbMutatedBlob, (blob) => {
      try {
        const c = decodeCreatedEventBlob(blob);
        stats.decoded++;
        // a blob that decodes must re-encode to something that decodes to the same contract
        const again = decodeCreatedEventBlob(encodeCreatedEventBlob(c));
        if (again.packageName !== c.packageName) throw new Error('re-encode changed the contract');
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
        stats.rejected[e.code] = (stats.rejected[e.code] ?? 0) + 1;
      }
    }),
    { numRuns, ...(seed === undefined ? {} : { seed }) },
  );
  return stats;
}
