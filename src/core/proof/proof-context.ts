/**
 * What repeated proof steps share, held by the caller instead of module state: the fast verdict
 * engine (src/core/verdict/engine.ts; null: the reference alone), the template plans met so far and
 * the field reader's scratch. One context per thread of work (replay makes one per run); it only
 * makes proofs cheaper, never different.
 */
import type { VerdictEngine } from '../verdict/engine.js';
import { FieldReader } from './fields-of-bytes.js';
import { TemplatePlans } from './template-plan.js';

export interface ProofContext {
  readonly engine: VerdictEngine | null;
  readonly plans: TemplatePlans;
  readonly fields: FieldReader;
}

/** A context around `engine` (e.g. `createWasmVerdictEngine(sha256NodeBinary)`, or null). */
export function createProofContext(engine: VerdictEngine | null): ProofContext {
  return { engine, plans: new TemplatePlans(), fields: new FieldReader() };
}
