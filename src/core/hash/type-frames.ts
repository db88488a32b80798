/**
 * Type variables of a Daml data type resolved through the frames of the enclosing instantiations —
 * used by the V12 typed encoder (typed-value-hash.ts) and the WebAssembly engine's type layout
 * (src/core/verdict/wasm/type-layout.ts). Not part of the hash barrel. The result goes into a
 * `Resolved` the caller owns and reuses (no allocation per lookup).
 */
import type { DamlType } from '../types/daml-type.js';

/** One instantiation: the data type's parameters, the arguments given, and the frame around it. */
export interface Frame {
  readonly params: readonly string[];
  readonly args: readonly DamlType[];
  readonly parent: Frame | null;
}

/** A resolveTypeVars result: the type and the frame its variables live in. */
export interface Resolved {
  type: DamlType;
  frame: Frame | null;
}

/** A fresh result slot for resolveTypeVars. */
export function createResolved(): Resolved {
  return { type: { kind: 'unit' }, frame: null };
}

/** Resolves `t`'s type variables through the frames into `resolved`; false when one is unbound. */
export function resolveTypeVars(t: DamlType, frame: Frame | null, resolved: Resolved): boolean {
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
