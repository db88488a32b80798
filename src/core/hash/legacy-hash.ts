/**
 * V10 `Legacy` value encoding (docs/protocol/contract-id.md §6.1, §6.5 column enc_L): the untyped blob value
 * exactly as serialized — records write all their fields (trailing Nones included), no labels.
 */
import type { Value } from '../codec/value.js';
import type { HashBuilder } from './hash-builder.js';
import { assertDepth, MAX_HASH_DEPTH } from './hash-depth.js';

/** Appends enc_L(value). */
export function encodeLegacyValue(b: HashBuilder, value: Value, depth = 0): void {
  if (depth > MAX_HASH_DEPTH) assertDepth(depth);
  switch (value.kind) {
    case 'unit':
      b.byte(0);
      return;
    case 'bool':
      b.byte(value.value ? 1 : 0);
      return;
    case 'int64':
    case 'timestamp':
      b.i64(value.value);
      return;
    case 'numeric':
      b.numeric(value.value);
      return;
    case 'text':
    case 'party':
      b.str(value.value);
      return;
    case 'contractId':
      b.lp(value.value);
      return;
    case 'date':
      b.i32(value.value);
      return;
    case 'optional':
      if (value.value === null) b.i32(0);
      else {
        b.i32(1);
        encodeLegacyValue(b, value.value, depth + 1);
      }
      return;
    case 'list':
      b.i32(value.elements.length);
      for (const x of value.elements) encodeLegacyValue(b, x, depth + 1);
      return;
    case 'textMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        b.str(k);
        encodeLegacyValue(b, v, depth + 1);
      }
      return;
    case 'genMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        encodeLegacyValue(b, k, depth + 1);
        encodeLegacyValue(b, v, depth + 1);
      }
      return;
    case 'record':
      b.i32(value.fields.length);
      for (const f of value.fields) encodeLegacyValue(b, f, depth + 1);
      return;
    case 'variant':
      b.str(value.constructor);
      encodeLegacyValue(b, value.value, depth + 1);
      return;
    case 'enum':
      b.str(value.constructor);
      return;
  }
}
