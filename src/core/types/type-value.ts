/**
 * Typing of untyped blob values against Daml types — what V12 TypedNormalForm hashing needs
 * (docs/protocol/contract-id.md §6.4; docs/protocol/dar-format.md §6.2): positional record fields get their
 * labels, variant/enum constructors their rank, type arguments are substituted, Numeric scales are checked.
 *
 * The result is in normal form: a record with fewer values than its type has fields is accepted
 * when every missing (trailing) field is Optional — Canton pads them with None — and trailing
 * `None` fields are left out of the typed record (the V12 hash drops them anyway). Extra fields,
 * wrong kinds, unknown constructors and scale mismatches are DamlTypeErrors with the value's path.
 */

import { formatGot } from '../../errors/base.js';
import { DamlTypeError } from '../../errors/types.js';
import type { DecodedContract } from '../codec/contract.js';
import type { Value } from '../codec/value.js';
import type { DamlType, DataTypeDef, PackageTypes, TypeConRef } from './daml-type.js';
import { formatQualifiedName } from './daml-type.js';
import type { TypeEnv } from './type-env.js';
import { resolveDataTypeRef, resolveTemplate } from './type-env.js';
import type { TypedValue } from './typed-value.js';

export const DEFAULT_MAX_TYPING_DEPTH = 200;

export interface TypingOptions {
  /** maximum value nesting depth (default 200) */
  readonly maxDepth?: number;
}

export interface TypedCreateArgument {
  readonly value: TypedValue;
  /** the package whose types were used */
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
  /** true when a different (newer) version of the package was used: "typed with a newer package version" */
  readonly upgraded: boolean;
  readonly note: string | null;
}

type Subst = ReadonlyMap<string, DamlType>;
const EMPTY: Subst = new Map();

interface Ctx {
  readonly env: TypeEnv;
  readonly home: PackageTypes | undefined;
  readonly maxDepth: number;
}

/**
 * Types a contract's create argument with its template's record type (exact package, else a
 * newer version of the same package name; see resolveTemplate). Throws DamlTypeError.
 */
export function typeCreateArgument(
  contract: Pick<DecodedContract, 'templateId' | 'packageName' | 'createArg'>,
  env: TypeEnv,
  options: TypingOptions = {},
): TypedCreateArgument {
  const r = resolveTemplate(env, contract.templateId, contract.packageName);
  if (!r.ok) throw new DamlTypeError('TYPE_NOT_FOUND', r.reason);
  if (r.dataType.params.length !== 0) {
    throw new DamlTypeError(
      'TYPE_ARGUMENTS_INVALID',
      `template ${formatQualifiedName(r.dataType.name)} expected a record type without parameters, got ${r.dataType.params.length}`,
    );
  }
  const ctx: Ctx = { env, home: r.package, maxDepth: options.maxDepth ?? DEFAULT_MAX_TYPING_DEPTH };
  const ref: TypeConRef = { packageId: r.package.packageId, ...r.dataType.name };
  const value = typeCon(contract.createArg, ref, [], r.dataType, ctx, '$', 0);
  return {
    value,
    packageId: r.package.packageId,
    packageName: r.package.name,
    packageVersion: r.package.version,
    upgraded: r.upgraded,
    note: r.note,
  };
}

/** Types `value` with `type` under the variable bindings `subst`. Throws DamlTypeError. */
export function typeValue(
  value: Value,
  type: DamlType,
  env: TypeEnv,
  subst: ReadonlyMap<string, DamlType> = EMPTY,
  options: TypingOptions = {},
): TypedValue {
  const ctx: Ctx = { env, home: undefined, maxDepth: options.maxDepth ?? DEFAULT_MAX_TYPING_DEPTH };
  return typeAt(value, closeType(type, subst, '$'), ctx, '$', 0);
}

/** Replaces type variables by their bindings; throws TYPE_ARGUMENTS_INVALID for an unbound one. */
function closeType(t: DamlType, subst: Subst, path: string): DamlType {
  switch (t.kind) {
    case 'var': {
      const b = subst.get(t.name);
      if (b === undefined) {
        throw new DamlTypeError(
          'TYPE_ARGUMENTS_INVALID',
          `"${path}" has an unbound type variable ${formatGot(t.name)}`,
        );
      }
      return b;
    }
    case 'optional':
    case 'list':
      return { kind: t.kind, type: closeType(t.type, subst, path) };
    case 'textMap':
      return { kind: 'textMap', value: closeType(t.value, subst, path) };
    case 'genMap':
      return { kind: 'genMap', key: closeType(t.key, subst, path), value: closeType(t.value, subst, path) };
    case 'con':
      return t.args.length === 0
        ? t
        : { kind: 'con', ref: t.ref, args: t.args.map((a) => closeType(a, subst, path)) };
    default:
      return t;
  }
}

function mismatch(path: string, expected: string, got: Value): DamlTypeError {
  return new DamlTypeError('TYPE_MISMATCH', `"${path}" expected ${expected}, got ${got.kind}`, {
    details: { path, expected, got: got.kind },
  });
}

function typeAt(v: Value, t: DamlType, ctx: Ctx, path: string, depth: number): TypedValue {
  if (depth > ctx.maxDepth) {
    throw new DamlTypeError(
      'TYPE_DEPTH_EXCEEDED',
      `"${path}" expected nesting depth <= ${ctx.maxDepth}, got deeper`,
    );
  }
  switch (t.kind) {
    case 'unit':
    case 'bool':
    case 'int64':
    case 'text':
    case 'party':
    case 'date':
    case 'timestamp':
    case 'contractId':
      if (v.kind !== t.kind) throw mismatch(path, t.kind, v);
      return v as TypedValue;
    case 'numeric': {
      if (v.kind !== 'numeric') throw mismatch(path, `numeric(${t.scale})`, v);
      const dot = v.value.indexOf('.');
      const scale = dot < 0 ? 0 : v.value.length - dot - 1;
      if (scale !== t.scale) {
        throw new DamlTypeError(
          'NUMERIC_SCALE_MISMATCH',
          `"${path}" expected a Numeric of scale ${t.scale}, got ${formatGot(v.value)} (scale ${scale})`,
          { details: { path, expected: t.scale, got: scale } },
        );
      }
      return v;
    }
    case 'optional':
      if (v.kind !== 'optional') throw mismatch(path, 'optional', v);
      return {
        kind: 'optional',
        value: v.value === null ? null : typeAt(v.value, t.type, ctx, `${path}?`, depth + 1),
      };
    case 'list': {
      if (v.kind !== 'list') throw mismatch(path, 'list', v);
      const out: TypedValue[] = new Array(v.elements.length);
      for (let i = 0; i < v.elements.length; i++) {
        out[i] = typeAt(v.elements[i] as Value, t.type, ctx, `${path}[${i}]`, depth + 1);
      }
      return { kind: 'list', elements: out };
    }
    case 'textMap':
      if (v.kind !== 'textMap') throw mismatch(path, 'textMap', v);
      return {
        kind: 'textMap',
        entries: v.entries.map(
          ([k, x]) => [k, typeAt(x, t.value, ctx, `${path}[${JSON.stringify(k)}]`, depth + 1)] as const,
        ),
      };
    case 'genMap':
      if (v.kind !== 'genMap') throw mismatch(path, 'genMap', v);
      return {
        kind: 'genMap',
        entries: v.entries.map(
          ([k, x], i) =>
            [
              typeAt(k, t.key, ctx, `${path}{key ${i}}`, depth + 1),
              typeAt(x, t.value, ctx, `${path}{value ${i}}`, depth + 1),
            ] as const,
        ),
      };
    case 'var':
      throw new DamlTypeError(
        'TYPE_ARGUMENTS_INVALID',
        `"${path}" has an unbound type variable ${formatGot(t.name)}`,
      );
    case 'con': {
      const def = resolveDataTypeRef(ctx.env, t.ref, ctx.home);
      if (def === undefined) {
        throw new DamlTypeError(
          'TYPE_NOT_FOUND',
          `"${path}" expected a loaded data type ${t.ref.packageId}:${formatQualifiedName(t.ref)}, got none`,
          { details: { path, packageId: t.ref.packageId, name: formatQualifiedName(t.ref) } },
        );
      }
      return typeCon(v, t.ref, t.args, def, ctx, path, depth);
    }
  }
}

function typeCon(
  v: Value,
  ref: TypeConRef,
  args: readonly DamlType[],
  def: DataTypeDef,
  ctx: Ctx,
  path: string,
  depth: number,
): TypedValue {
  // the type's name, for error messages only (formatting it per value cost as much as the typing)
  const nameOf = (): string => formatQualifiedName(ref);
  if (def.params.length !== args.length) {
    throw new DamlTypeError(
      'TYPE_ARGUMENTS_INVALID',
      `"${path}" type ${nameOf()} expected ${def.params.length} type arguments, got ${args.length}`,
    );
  }
  let subst: Subst = EMPTY;
  if (args.length > 0) {
    const m = new Map<string, DamlType>();
    for (let i = 0; i < args.length; i++) m.set(def.params[i] as string, args[i] as DamlType);
    subst = m;
  }
  switch (def.kind) {
    case 'record': {
      if (v.kind !== 'record') throw mismatch(path, `record ${nameOf()}`, v);
      const n = v.fields.length;
      const m = def.fields.length;
      if (n > m) {
        throw new DamlTypeError(
          'TYPE_MISMATCH',
          `"${path}" expected record ${nameOf()} with at most ${m} fields, got ${n} fields`,
          { details: { path, expected: m, got: n } },
        );
      }
      for (let i = n; i < m; i++) {
        const f = def.fields[i] as { name: string; type: DamlType };
        if (f.type.kind !== 'optional') {
          throw new DamlTypeError(
            'TYPE_MISMATCH',
            `"${path}.${f.name}" expected a value (field of non-optional type ${f.type.kind} in ${nameOf()}), got none: the record has only ${n} of ${m} fields`,
            { details: { path, field: f.name } },
          );
        }
      }
      const fields: (readonly [string, TypedValue])[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const f = def.fields[i] as { name: string; type: DamlType };
        const ft = subst.size === 0 ? f.type : closeType(f.type, subst, `${path}.${f.name}`);
        fields[i] = [f.name, typeAt(v.fields[i] as Value, ft, ctx, `${path}.${f.name}`, depth + 1)];
      }
      let end = n;
      while (end > 0) {
        const last = (fields[end - 1] as readonly [string, TypedValue])[1];
        if (last.kind === 'optional' && last.value === null) end--;
        else break;
      }
      if (end < n) fields.length = end;
      return { kind: 'record', type: def.name, fields };
    }
    case 'variant': {
      if (v.kind !== 'variant') throw mismatch(path, `variant ${nameOf()}`, v);
      const rank = def.constructors.findIndex((c) => c.name === v.constructor);
      if (rank < 0) {
        throw new DamlTypeError(
          'UNKNOWN_CONSTRUCTOR',
          `"${path}" expected a constructor of variant ${nameOf()} (${def.constructors.map((c) => c.name).join(', ')}), got ${formatGot(v.constructor)}`,
        );
      }
      const c = def.constructors[rank] as { name: string; type: DamlType };
      const ct = subst.size === 0 ? c.type : closeType(c.type, subst, path);
      return {
        kind: 'variant',
        type: def.name,
        constructor: v.constructor,
        rank,
        value: typeAt(v.value, ct, ctx, `${path}<${v.constructor}>`, depth + 1),
      };
    }
    case 'enum': {
      if (v.kind !== 'enum') throw mismatch(path, `enum ${nameOf()}`, v);
      const rank = def.constructors.indexOf(v.constructor);
      if (rank < 0) {
        throw new DamlTypeError(
          'UNKNOWN_CONSTRUCTOR',
          `"${path}" expected a constructor of enum ${nameOf()} (${def.constructors.join(', ')}), got ${formatGot(v.constructor)}`,
        );
      }
      return { kind: 'enum', type: def.name, constructor: v.constructor, rank };
    }
  }
}
