/**
 * What repeated hashes share, held by the caller instead of module state: the preimage builder and
 * its string/numeric encodings, the typed encoder's compiled data types and resolved references,
 * the template lookups by bytes, the hex scratch and the decoder's scratch. A context only makes
 * hashing cheaper, never different (the same bytes come out with a fresh one); one per thread of
 * work — a `ProofContext` (src/core/proof/proof-context.ts) holds one, and the public hash
 * functions make a fresh one per call when given none.
 */
import { DecodeScratch } from '../codec/decode-scratch.js';
import type { DamlType, DataTypeDef, PackageTypes } from '../types/daml-type.js';
import type { TypeEnv } from '../types/type-env.js';
import { HashBuilder, HashCaches } from './hash-builder.js';
import { HexScratch } from './hex.js';
import { TemplateOfBytesMemo } from './template-of-bytes.js';

/** Per data type, the TypedNormalForm bytes that do not depend on the value, encoded once. */
export interface Compiled {
  readonly def: DataTypeDef;
  /** tag ‖ qualifiedName */
  readonly head: Uint8Array;
  /** record: str(label) per field; variant: str(ctor) ‖ i32(rank); enum: head ‖ str(ctor) ‖ i32(rank) */
  readonly parts: readonly Uint8Array[];
  /** record with fields: head ‖ parts[0] (one copy instead of two); else head */
  readonly headFirst: Uint8Array;
  /** variant/enum constructor name → rank */
  readonly ranks: ReadonlyMap<string, number>;
}

/** The typed (V12) encoder's memo: compiled data types and, per environment, resolved `con` nodes. */
export class TypedHashMemo {
  /** data type → its compiled byte pieces */
  readonly compiled = new WeakMap<DataTypeDef, Compiled>();
  /**
   * Resolved references per (environment, home package). Reset when packages were added since
   * (resolution of references to unloaded packages can change then); exact hits never change.
   */
  readonly cons = new WeakMap<TypeEnv, { size: number; home: PackageTypes; map: Map<DamlType, Compiled> }>();
}

/** See the file comment: one per thread of work, passed to the hash functions as `context`. */
export class HashContext {
  /** the string and numeric encodings the builder remembers */
  readonly caches = new HashCaches();
  /** the preimage builder of the contract hash and the unicum (one at a time, reset before each) */
  readonly builder = new HashBuilder(8192, this.caches);
  /** the typed (V12) encoder's compiled data types and resolved references */
  readonly typed = new TypedHashMemo();
  /** template lookups by the blob's bytes */
  readonly templates = new TemplateOfBytesMemo();
  /** the hex helpers' scratch */
  readonly hex = new HexScratch();
  private decodeScratch: DecodeScratch | null = null;

  /** the decoder's scratch (made on first use: its string cache is 256 KiB) */
  get decode(): DecodeScratch {
    if (this.decodeScratch === null) this.decodeScratch = new DecodeScratch();
    return this.decodeScratch;
  }
}
