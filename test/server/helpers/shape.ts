/**
 * A tiny strict schema checker for response bodies in the server tests: exact key sets (no extra,
 * no missing keys), JSON types, and the number formats of docs/protocol/api-decisions.md §1.
 */
import { expect } from 'vitest';

type Leaf =
  | 'string'
  | 'dec10' // non-negative decimal string with exactly 10 decimals
  | 'sdec10' // signed decimal string with exactly 10 decimals
  | 'trimmed' // plain decimal string without trailing zeros ("2", "0.7948", "0")
  | 'sec2' // decimal string with 2 decimals
  | 'intstr' // integer written as a string
  | 'int' // JSON integer
  | 'number' // finite JSON number
  | 'bool'
  | 'null'
  | 'ts' // ISO 8601 timestamp with +00:00
  | 'hex'
  | 'base64';

export type Schema = Leaf | `${Leaf}|null` | { readonly [k: string]: Schema } | readonly [Schema];

const RE: Record<string, RegExp> = {
  dec10: /^(0|[1-9][0-9]*)\.[0-9]{10}$/,
  sdec10: /^-?(0|[1-9][0-9]*)\.[0-9]{10}$/,
  trimmed: /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/,
  sec2: /^(0|[1-9][0-9]*)\.[0-9]{2}$/,
  intstr: /^(0|[1-9][0-9]*)$/,
  ts: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?\+00:00$/,
  hex: /^([0-9a-f]{2})+$/,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
};

function checkLeaf(v: unknown, leaf: Leaf, path: string): string | null {
  switch (leaf) {
    case 'string':
      return typeof v === 'string' ? null : `${path}: expected string, got ${JSON.stringify(v)}`;
    case 'int':
      return Number.isSafeInteger(v) ? null : `${path}: expected integer, got ${JSON.stringify(v)}`;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v)
        ? null
        : `${path}: expected number, got ${JSON.stringify(v)}`;
    case 'bool':
      return typeof v === 'boolean' ? null : `${path}: expected boolean, got ${JSON.stringify(v)}`;
    case 'null':
      return v === null ? null : `${path}: expected null, got ${JSON.stringify(v)}`;
    default: {
      const re = RE[leaf];
      if (re === undefined) return `${path}: unknown leaf ${leaf}`;
      return typeof v === 'string' && re.test(v)
        ? null
        : `${path}: expected ${leaf}, got ${JSON.stringify(v)}`;
    }
  }
}

function shapeErrors(v: unknown, schema: Schema, path = '$'): string[] {
  if (typeof schema === 'string') {
    const alts = schema.split('|') as Leaf[];
    const errs = alts.map((a) => checkLeaf(v, a, path));
    return errs.some((e) => e === null) ? [] : [errs[0] ?? path];
  }
  if (Array.isArray(schema)) {
    if (!Array.isArray(v)) return [`${path}: expected array, got ${JSON.stringify(v)?.slice(0, 80)}`];
    return v.flatMap((x, i) => shapeErrors(x, schema[0] as Schema, `${path}[${i}]`));
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [`${path}: expected object`];
  const obj = v as Record<string, unknown>;
  const want = Object.keys(schema).sort();
  const got = Object.keys(obj).sort();
  const errs: string[] = [];
  if (want.join(',') !== got.join(',')) errs.push(`${path}: keys ${got.join(',')} != ${want.join(',')}`);
  for (const k of want) {
    if (Object.hasOwn(obj, k))
      errs.push(...shapeErrors(obj[k], (schema as Record<string, Schema>)[k] as Schema, `${path}.${k}`));
  }
  return errs;
}

export function expectShape(v: unknown, schema: Schema): void {
  expect(shapeErrors(v, schema)).toEqual([]);
}

/** The key structure of a JSON value (objects → sorted keys recursively; arrays → first element). */
export function keyStructure(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? [] : [keyStructure(v[0])];
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, keyStructure(o[k])]),
    );
  }
  return typeof v;
}
