/**
 * What repeated proof steps share, held by the caller instead of module state: the fast verdict
 * engine (src/core/verdict/engine.ts; null: the reference alone), the template plans met so far,
 * the field reader's scratch, the evidence step's memo and the hash context (builder, string and
 * numeric encodings, compiled types, decoder scratch: src/core/hash/hash-context.ts). One context
 * per thread of work (replay makes one per run); it only makes proofs cheaper, never different.
 */
import { HashContext } from '../hash/hash-context.js';
import type { VerdictEngine } from '../verdict/engine.js';
import { EvidenceMemo } from './evidence.js';
import { FieldReader } from './fields-of-bytes.js';
import { TemplatePlans } from './template-plan.js';

export interface ProofContext {
  readonly engine: VerdictEngine | null;
  readonly plans: TemplatePlans;
  readonly fields: FieldReader;
  /** field labels and template identities met so far */
  readonly evidence: EvidenceMemo;
  /** the reference walk's builder, caches and scratch */
  readonly hash: HashContext;
}

/** A context around `engine` (e.g. `createWasmVerdictEngine(sha256NodeBinary)`, or null). */
export function createProofContext(engine: VerdictEngine | null): ProofContext {
  const hash = new HashContext();
  return {
    engine,
    plans: new TemplatePlans(),
    // the field reader decodes its strings through the decoder's cache
    fields: new FieldReader(hash.decode.strings),
    evidence: new EvidenceMemo(),
    hash,
  };
}
