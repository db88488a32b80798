/**
 * V11 `UpgradeFriendly` (a.k.a. `UpgradeFriendlyUnsafe`) value encoding (docs/protocol/contract-id.md §6.2,
 * §6.3, §6.5 columns enc_U and fld_U). Record fields carry their 0-based index and default values
 * are skipped; non-empty TextMap/GenMap fields are written WITHOUT their field index (the known
 * non-injectivity of V11, §6.3); a record ends with `ff`.
 */
import type { Value } from '../codec/value.js';
import type { HashBuilder } from './hash-builder.js';
import { numericUnscaledBytes } from './hash-builder.js';
import { assertDepth, MAX_HASH_DEPTH } from './hash-depth.js';

/** Appends enc_U(value) — the encoding of a value that is not directly a record field. */
export function encodeUpgradeFriendlyValue(b: HashBuilder, value: Value, depth = 0): void {
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
      if (value.value === null) b.byte(0);
      else {
        b.byte(1);
        encodeUpgradeFriendlyValue(b, value.value, depth + 1);
      }
      return;
    case 'list':
      b.i32(value.elements.length);
      for (const x of value.elements) encodeUpgradeFriendlyValue(b, x, depth + 1);
      return;
    case 'textMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        b.str(k);
        encodeUpgradeFriendlyValue(b, v, depth + 1);
      }
      return;
    case 'genMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        encodeUpgradeFriendlyValue(b, k, depth + 1);
        encodeUpgradeFriendlyValue(b, v, depth + 1);
      }
      return;
    case 'record':
      encodeUpgradeFriendlyRecord(b, value.fields, depth + 1);
      return;
    case 'variant':
      b.str(value.constructor);
      encodeUpgradeFriendlyValue(b, value.value, depth + 1);
      return;
    case 'enum':
      b.str(value.constructor);
      return;
  }
}

/** Appends ufRecord(fields) = fld_U(0, f0) ‖ fld_U(1, f1) ‖ … ‖ ff. */
export function encodeUpgradeFriendlyRecord(b: HashBuilder, fields: readonly Value[], depth = 0): void {
  if (depth > MAX_HASH_DEPTH) assertDepth(depth);
  for (let i = 0; i < fields.length; i++) {
    encodeUpgradeFriendlyField(b, i, fields[i] as Value, depth + 1);
  }
  b.byte(0xff);
}

/** Appends fld_U(i, v): the record-field form, skipping defaults. */
function encodeUpgradeFriendlyField(b: HashBuilder, i: number, v: Value, depth: number): void {
  switch (v.kind) {
    case 'unit':
      return;
    case 'bool':
      if (v.value) b.i32(i).byte(1);
      return;
    case 'int64':
    case 'timestamp':
      if (v.value !== 0n) b.i32(i).i64(v.value);
      return;
    case 'numeric': {
      const bytes = numericUnscaledBytes(v.value);
      // BigInteger.signum == 0 ⇔ toByteArray() == [0]
      if (!(bytes.length === 1 && bytes[0] === 0)) b.i32(i).lp(bytes);
      return;
    }
    case 'text':
      if (v.value !== '') b.i32(i).str(v.value);
      return;
    case 'party':
      b.i32(i).str(v.value);
      return;
    case 'contractId':
      b.i32(i).lp(v.value);
      return;
    case 'date':
      if (v.value !== 0) b.i32(i).i32(v.value);
      return;
    case 'optional':
      if (v.value !== null) {
        b.i32(i);
        encodeUpgradeFriendlyValue(b, v.value, depth + 1);
      }
      return;
    case 'list':
      if (v.elements.length > 0) {
        b.i32(i);
        encodeUpgradeFriendlyValue(b, v, depth + 1);
      }
      return;
    case 'textMap':
    case 'genMap':
      // V11 quirk (§6.3): non-empty maps are written WITHOUT the field index.
      if (v.entries.length > 0) encodeUpgradeFriendlyValue(b, v, depth + 1);
      return;
    case 'record':
      b.i32(i);
      encodeUpgradeFriendlyRecord(b, v.fields, depth + 1);
      return;
    case 'variant':
    case 'enum':
      b.i32(i);
      encodeUpgradeFriendlyValue(b, v, depth + 1);
      return;
  }
}
