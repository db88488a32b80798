/**
 * V12 `TypedNormalForm` value encoding (SValueHash; docs/protocol/contract-id.md §6.4, §6.5 column enc_T):
 * every value starts with a 1-byte type tag; records/variants/enums carry their qualified type
 * name WITHOUT package id or type arguments; records write `str(label) ‖ enc_T(v)` per field,
 * dropping trailing `None` fields, then `ff`; variants and enums carry the constructor rank.
 */
import type { TypedValue } from '../types/typed-value.js';
import type { HashBuilder } from './hash-builder.js';
import { assertDepth, MAX_HASH_DEPTH } from './hash-depth.js';
import { encodeScalar } from './untyped-value-hash.js';

/** The 1-byte type tags of enc_T. */
export const TNF_TAG = {
  int64: 0x00,
  numeric: 0x01,
  text: 0x02,
  timestamp: 0x03,
  party: 0x04,
  bool: 0x05,
  unit: 0x06,
  date: 0x07,
  record: 0x08,
  variant: 0x09,
  enum: 0x0a,
  list: 0x0b,
  optional: 0x0c,
  textMap: 0x0d,
  genMap: 0x0e,
  contractId: 0x0f,
} as const;

/** Appends enc_T(value). */
export function encodeTypedNormalFormValue(b: HashBuilder, value: TypedValue, depth = 0): void {
  if (depth > MAX_HASH_DEPTH) assertDepth(depth);
  // every value starts with its kind's tag
  b.byte(TNF_TAG[value.kind]);
  // a TypedValue's scalars are the untyped Value's
  if (value.kind === 'unit' || encodeScalar(b, value)) return;
  switch (value.kind) {
    case 'optional':
      b.byte(value.value === null ? 0 : 1);
      if (value.value !== null) encodeTypedNormalFormValue(b, value.value, depth + 1);
      return;
    case 'list':
      b.i32(value.elements.length);
      for (const x of value.elements) encodeTypedNormalFormValue(b, x, depth + 1);
      return;
    case 'textMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        b.str(k);
        encodeTypedNormalFormValue(b, v, depth + 1);
      }
      return;
    case 'genMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        encodeTypedNormalFormValue(b, k, depth + 1);
        encodeTypedNormalFormValue(b, v, depth + 1);
      }
      return;
    case 'record': {
      b.qualifiedName(value.type.module, value.type.entity);
      const fields = value.fields;
      let end = fields.length;
      while (end > 0) {
        const last = (fields[end - 1] as readonly [string, TypedValue])[1];
        if (last.kind === 'optional' && last.value === null) end--;
        else break;
      }
      for (let i = 0; i < end; i++) {
        const [label, v] = fields[i] as readonly [string, TypedValue];
        b.str(label);
        encodeTypedNormalFormValue(b, v, depth + 1);
      }
      b.byte(0xff);
      return;
    }
    case 'variant':
    case 'enum':
      b.qualifiedName(value.type.module, value.type.entity).str(value.constructor).i32(value.rank);
      if (value.kind === 'variant') encodeTypedNormalFormValue(b, value.value, depth + 1);
      return;
  }
}
