/**
 * Type variables of a Daml data type resolved through the frames of the enclosing instantiations —
 * used by the V12 typed encoder (typed-value-hash.ts) and the WebAssembly engine's type layout
 * (src/core/verdict/wasm/type-layout.ts). Not part of the hash barrel: `resolved` is module-level scratch
 * (single-threaded, no allocation per lookup).
 */
import type { DamlType } from '../types/daml-type.js';

/** One instantiation: the data type's parameters, the arguments given, and the frame around it. */
export interface Frame {
  readonly params: readonly string[];
  readonly args: readonly DamlType[];
  readonly parent: Frame | null;
}

/** The last resolveTypeVars result: the type and the frame its variables live in. */
export const resolved: { type: DamlType; frame: Frame | null } = { type: { kind: 'unit' }, frame: null };

/** Resolves `t`'s type variables through the frames into `resolved`; false when one is unbound. */
export function resolveTypeVars(t: DamlType, frame: Frame | null): boolean {
  while (t.kind === 'var') {
    if (frame === null) return false;
    const i = frame.params.indexOf(t.name);
    if (i < 0) return false;
    t = frame.args[i] as DamlType;
    frame = frame.parent;
  }
  resolved.type = t;
  resolved.frame = frame;
  return true;
}
