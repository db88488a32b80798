/**
 * V12 `TypedNormalForm` value encoding (SValueHash; docs/protocol/contract-id.md §6.4, §6.5 column enc_T):
 * every value starts with a 1-byte type tag; records/variants/enums carry their qualified type
 * name WITHOUT package id or type arguments; records write `str(label) ‖ enc_T(v)` per field,
 * dropping trailing `None` fields, then `ff`; variants and enums carry the constructor rank.
 */
import type { TypedValue } from '../types/typed-value.js';
import type { HashBuilder } from './hash-builder.js';
import { assertDepth, MAX_HASH_DEPTH } from './hash-depth.js';

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
  switch (value.kind) {
    case 'unit':
      b.byte(TNF_TAG.unit);
      return;
    case 'bool':
      b.byte(TNF_TAG.bool).byte(value.value ? 1 : 0);
      return;
    case 'int64':
      b.byte(TNF_TAG.int64).i64(value.value);
      return;
    case 'timestamp':
      b.byte(TNF_TAG.timestamp).i64(value.value);
      return;
    case 'numeric':
      b.byte(TNF_TAG.numeric).numeric(value.value);
      return;
    case 'text':
      b.byte(TNF_TAG.text).str(value.value);
      return;
    case 'party':
      b.byte(TNF_TAG.party).str(value.value);
      return;
    case 'contractId':
      b.byte(TNF_TAG.contractId).lp(value.value);
      return;
    case 'date':
      b.byte(TNF_TAG.date).i32(value.value);
      return;
    case 'optional':
      b.byte(TNF_TAG.optional);
      if (value.value === null) b.byte(0);
      else {
        b.byte(1);
        encodeTypedNormalFormValue(b, value.value, depth + 1);
      }
      return;
    case 'list':
      b.byte(TNF_TAG.list).i32(value.elements.length);
      for (const x of value.elements) encodeTypedNormalFormValue(b, x, depth + 1);
      return;
    case 'textMap':
      b.byte(TNF_TAG.textMap).i32(value.entries.length);
      for (const [k, v] of value.entries) {
        b.str(k);
        encodeTypedNormalFormValue(b, v, depth + 1);
      }
      return;
    case 'genMap':
      b.byte(TNF_TAG.genMap).i32(value.entries.length);
      for (const [k, v] of value.entries) {
        encodeTypedNormalFormValue(b, k, depth + 1);
        encodeTypedNormalFormValue(b, v, depth + 1);
      }
      return;
    case 'record': {
      b.byte(TNF_TAG.record).qualifiedName(value.type.module, value.type.entity);
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
      b.byte(TNF_TAG.variant).qualifiedName(value.type.module, value.type.entity);
      b.str(value.constructor).i32(value.rank);
      encodeTypedNormalFormValue(b, value.value, depth + 1);
      return;
    case 'enum':
      b.byte(TNF_TAG.enum).qualifiedName(value.type.module, value.type.entity);
      b.str(value.constructor).i32(value.rank);
      return;
  }
}
