/**
 * The untyped value encodings of V10 and V11 (docs/protocol/contract-id.md §6.1–§6.3, §6.5 columns
 * enc_L, enc_U and fld_U). They agree on every kind but two:
 * - `Legacy` (V10) writes an optional's flag as an i32 and a record as i32(n) ‖ all its fields
 *   (trailing Nones included), no labels;
 * - `UpgradeFriendly` (V11, a.k.a. `UpgradeFriendlyUnsafe`) writes an optional's flag as one byte
 *   and a record as its fields with their 0-based index, defaults skipped, then `ff`; non-empty
 *   TextMap/GenMap fields are written WITHOUT their field index (the known non-injectivity of V11,
 *   §6.3).
 */
import type { Value } from '../codec/value.js';
import type { TypedValue } from '../types/typed-value.js';
import type { HashBuilder } from './hash-builder.js';
import { numericUnscaledBytes } from './hash-builder.js';
import { assertDepth, MAX_HASH_DEPTH } from './hash-depth.js';

/** Appends enc_L(value) (V10). */
export function encodeLegacyValue(b: HashBuilder, value: Value, depth = 0): void {
  encodeUntypedValue(b, value, false, depth);
}

/** Appends enc_U(value) (V11) — the encoding of a value that is not directly a record field. */
export function encodeUpgradeFriendlyValue(b: HashBuilder, value: Value, depth = 0): void {
  encodeUntypedValue(b, value, true, depth);
}

/**
 * Appends a scalar the way every encoding writes it (V10, V11, and V12 after its tag): bool, int64,
 * timestamp, numeric, text, party, contract id, date. False, writing nothing, for unit and the
 * containers, which each encoding writes its own way.
 */
export function encodeScalar(b: HashBuilder, value: Value | TypedValue): boolean {
  switch (value.kind) {
    case 'bool':
      b.byte(value.value ? 1 : 0);
      return true;
    case 'int64':
    case 'timestamp':
      b.i64(value.value);
      return true;
    case 'numeric':
      b.numeric(value.value);
      return true;
    case 'text':
    case 'party':
      b.str(value.value);
      return true;
    case 'contractId':
      b.lp(value.value);
      return true;
    case 'date':
      b.i32(value.value);
      return true;
    default:
      return false;
  }
}

/** enc_L (`upgradeFriendly` false) or enc_U (true) of `value`. */
function encodeUntypedValue(b: HashBuilder, value: Value, upgradeFriendly: boolean, depth: number): void {
  if (depth > MAX_HASH_DEPTH) assertDepth(depth);
  const next = depth + 1;
  if (encodeScalar(b, value)) return;
  switch (value.kind) {
    case 'unit':
      b.byte(0);
      return;
    case 'optional': {
      const flag = value.value === null ? 0 : 1;
      if (upgradeFriendly) b.byte(flag);
      else b.i32(flag);
      if (value.value !== null) encodeUntypedValue(b, value.value, upgradeFriendly, next);
      return;
    }
    case 'list':
      b.i32(value.elements.length);
      for (const x of value.elements) encodeUntypedValue(b, x, upgradeFriendly, next);
      return;
    case 'textMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        b.str(k);
        encodeUntypedValue(b, v, upgradeFriendly, next);
      }
      return;
    case 'genMap':
      b.i32(value.entries.length);
      for (const [k, v] of value.entries) {
        encodeUntypedValue(b, k, upgradeFriendly, next);
        encodeUntypedValue(b, v, upgradeFriendly, next);
      }
      return;
    case 'record':
      if (upgradeFriendly) encodeUpgradeFriendlyRecord(b, value.fields, next);
      else {
        b.i32(value.fields.length);
        for (const f of value.fields) encodeUntypedValue(b, f, false, next);
      }
      return;
    case 'variant':
      b.str(value.constructor);
      encodeUntypedValue(b, value.value, upgradeFriendly, next);
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
      const bytes = numericUnscaledBytes(v.value, b.caches);
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
