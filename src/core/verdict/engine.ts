/**
 * The seam between the reference walk and a fast engine (docs/decisions/hash.md §14). An engine is
 * allowed exactly one answer: *verified* — the contract ID recomputes from the blob and the blob
 * embeds that very ID. Everything else (a mismatch, a decode error, a shape the engine does not
 * handle, no WebAssembly) is "no answer", and the reference walk (src/core/hash/verify-contract-id.ts)
 * decides. So an engine can make a verification faster, never different: a wrong "verified" is
 * the only failure it could add, and the shared case suite (test/verdict/engine-cases.test.ts)
 * holds every engine to the reference's answer on real vectors, truncations, mutations and
 * generated contracts.
 */
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';

/** the type environment's answer for a template it resolved */
export type ResolvedTemplate = Extract<TemplateLookup, { ok: true }>;

/**
 * Where the engine found the fields a caller may want to read after the verdict: byte offsets into
 * the blob it was given (the reserve proof reads its profile's fields there).
 */
export interface BlobSpans {
  /** the `package_name` field's bytes */
  readonly nameAt: number;
  readonly nameStop: number;
  /** the `template_id` Identifier message */
  readonly idAt: number;
  readonly idStop: number;
  /** the `create_arg` Value message */
  readonly argAt: number;
  readonly argStop: number;
  /** `created_at` in µs (|µs| < 2^53, checked by the engine) */
  readonly createdAtMicros: number;
}

/** A verified contract, as an engine reports it. */
export interface EngineVerdict {
  /** the contract hash, as a binary string (one char per byte) */
  readonly contractHash: string;
  /** V12: the template resolution the create argument was typed with; null for V10/V11 */
  readonly resolution: ResolvedTemplate | null;
  readonly spans: BlobSpans;
}

/** A fast verifier of contract IDs that may only say "verified". */
export interface VerdictEngine {
  readonly name: string;
  /**
   * The verdict for `blob` (bytes, read in place and not kept) published as `contractId`
   * (lower-case hex); V12 IDs need `types`. Null whenever the answer is not a clean "verified"
   * that this engine is sure of. Never throws.
   */
  verify(blob: Uint8Array, contractId: string, types: TypeEnv | undefined): EngineVerdict | null;
}
