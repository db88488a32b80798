/**
 * Converts the vector files' JSON value notation (test/vectors/contract-id-test-vectors.json) into
 * the untyped `Value` and the `TypedValue` trees (tests only).
 */
import type { Value } from '../../src/core/codec/value.js';
import { parseQualifiedName } from '../../src/core/types/type-env.js';
import type { TypedValue } from '../../src/core/types/typed-value.js';
import type { VectorValue } from '../helpers/vectors.js';

function hexBytes(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h, 'hex'));
}

function one(v: VectorValue): [string, unknown] {
  const keys = Object.keys(v);
  if (keys.length !== 1) throw new Error(`vector value with keys ${keys.join(',')}`);
  const k = keys[0] as string;
  return [k, v[k]];
}

/** Untyped notation → Value. */
export function toValue(v: VectorValue): Value {
  const [k, x] = one(v);
  switch (k) {
    case 'unit':
      return { kind: 'unit' };
    case 'bool':
      return { kind: 'bool', value: x as boolean };
    case 'int64':
      return { kind: 'int64', value: BigInt(x as string) };
    case 'numeric':
      return { kind: 'numeric', value: x as string };
    case 'text':
      return { kind: 'text', value: x as string };
    case 'party':
      return { kind: 'party', value: x as string };
    case 'contractId':
      return { kind: 'contractId', value: hexBytes(x as string) };
    case 'date':
      return { kind: 'date', value: x as number };
    case 'timestamp':
      return { kind: 'timestamp', value: BigInt(x as string) };
    case 'optional':
      return { kind: 'optional', value: x === null ? null : toValue(x as VectorValue) };
    case 'list':
      return { kind: 'list', elements: (x as VectorValue[]).map(toValue) };
    case 'textMap':
      return {
        kind: 'textMap',
        entries: (x as [string, VectorValue][]).map(([a, b]) => [a, toValue(b)] as const),
      };
    case 'genMap':
      return {
        kind: 'genMap',
        entries: (x as [VectorValue, VectorValue][]).map(([a, b]) => [toValue(a), toValue(b)] as const),
      };
    case 'record': {
      const fields = Array.isArray(x)
        ? (x as VectorValue[])
        : (x as { fields: [string, VectorValue][] }).fields.map((f) => f[1]);
      return { kind: 'record', fields: fields.map(toValue) };
    }
    case 'variant': {
      const o = x as { ctor: string; value: VectorValue };
      return { kind: 'variant', constructor: o.ctor, value: toValue(o.value) };
    }
    case 'enum':
      return { kind: 'enum', constructor: (x as { ctor: string }).ctor };
    default:
      throw new Error(`unknown vector value kind ${k}`);
  }
}

function qn(s: string) {
  const q = parseQualifiedName(s);
  if (q === undefined) throw new Error(`bad qualified name ${s}`);
  return q;
}

/** Typed notation → TypedValue. */
export function toTypedValue(v: VectorValue): TypedValue {
  const [k, x] = one(v);
  switch (k) {
    case 'optional':
      return { kind: 'optional', value: x === null ? null : toTypedValue(x as VectorValue) };
    case 'list':
      return { kind: 'list', elements: (x as VectorValue[]).map(toTypedValue) };
    case 'textMap':
      return {
        kind: 'textMap',
        entries: (x as [string, VectorValue][]).map(([a, b]) => [a, toTypedValue(b)] as const),
      };
    case 'genMap':
      return {
        kind: 'genMap',
        entries: (x as [VectorValue, VectorValue][]).map(
          ([a, b]) => [toTypedValue(a), toTypedValue(b)] as const,
        ),
      };
    case 'record': {
      const o = x as { type: string; fields: [string, VectorValue][] };
      return {
        kind: 'record',
        type: qn(o.type),
        fields: o.fields.map(([l, f]) => [l, toTypedValue(f)] as const),
      };
    }
    case 'variant': {
      const o = x as { type: string; ctor: string; rank: number; value: VectorValue };
      return {
        kind: 'variant',
        type: qn(o.type),
        constructor: o.ctor,
        rank: o.rank,
        value: toTypedValue(o.value),
      };
    }
    case 'enum': {
      const o = x as { type: string; ctor: string; rank: number };
      return { kind: 'enum', type: qn(o.type), constructor: o.ctor, rank: o.rank };
    }
    default:
      return toValue(v) as TypedValue;
  }
}
