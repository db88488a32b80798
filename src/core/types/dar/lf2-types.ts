/**
 * LF 2.x `Type` messages and the interned type table (docs/protocol/dar-format.md §4.3, §5 rules 3–6):
 * decodes `Package.interned_types` in order (entry i may reference only entries < i), resolves
 * package references (self / interned string / LF 2.2 package import), flattens LF 2.2 `tapp`
 * chains into argument lists. Conversion to the shared `DamlType` is in lf2-serializable.ts.
 */
import { DarError } from '../../../errors/dar.js';
import type { DamlType, TypeConRef } from '../daml-type.js';
import type { InternedTable } from './lf2-tables.js';
import { assertAtEnd, readEnd, skipField, type WireReader } from './wire.js';

/** Internal form of an LF type: what the table holds before conversion to DamlType. */
export type LfType =
  | { readonly t: 'var'; readonly name: string; readonly args: readonly LfType[]; readonly d: number }
  | { readonly t: 'con'; readonly ref: TypeConRef; readonly args: readonly LfType[]; readonly d: number }
  | { readonly t: 'builtin'; readonly b: number; readonly args: readonly LfType[]; readonly d: number }
  | { readonly t: 'nat'; readonly n: number; readonly d: number }
  | { readonly t: 'other'; readonly what: string; readonly d: number };

/** What decoding a type needs from the package being decoded. */
export interface TypeContext {
  readonly strings: InternedTable<string>;
  /** dotted names as segment arrays (shared, frozen) */
  readonly dottedNames: InternedTable<readonly string[]>;
  /** Package.package_imports (LF 2.2), or null when absent */
  readonly imports: readonly string[] | null;
  /** the computed id of the package being decoded (for `self` references) */
  readonly selfId: string;
  /** interned types decoded so far (lazily: an entry is decoded the first time it is referenced) */
  readonly table: (LfType | undefined)[];
  /** byte ranges of the Package.interned_types entries */
  readonly tableRanges: readonly (readonly [number, number])[];
  readonly maxDepth: number;
  /** every package id referenced by a type (filled while decoding) */
  readonly referenced: Set<string>;
  /** LF types converted to DamlType so far (an interned type converts once, to one shared object) */
  readonly damlTypes: WeakMap<LfType, DamlType>;
}

const PACKAGE_ID = /^[0-9a-f]{64}$/;

/** The Type members no contract can hold, by field number: [member name, what to call it]. */
const UNSERIALIZABLE_TYPES: Readonly<Record<number, readonly [string, string]>> = {
  4: ['forall', 'forall'],
  5: ['struct', 'struct'],
  7: ['syn', 'type synonym'],
};

/**
 * Decodes one `Type` message ending at `end`. `limit` is the number of interned entries it may
 * reference (`i` while decoding table entry i; the table length elsewhere).
 */
export function decodeType(
  r: WireReader,
  end: number,
  ctx: TypeContext,
  limit: number,
  depth: number,
): LfType {
  if (depth > ctx.maxDepth) {
    throw new DarError('DAR_TYPE_TOO_DEEP', `type nesting expected at most ${ctx.maxDepth} levels, got more`);
  }
  let result: LfType | null = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
      case 2:
      case 3:
      case 9:
        if (wt !== 2) throw malformed('Type', wt);
        result = decodeApplication(r, tag >>> 3, readEnd(r, end, 'Type'), ctx, limit, depth);
        break;
      case 4:
      case 5:
      case 7: {
        // forall, struct, type synonym: skipped, kept only to say what is not serializable
        const [name, what] = UNSERIALIZABLE_TYPES[tag >>> 3]!;
        skipField(r, wt, `Type.${name}`);
        result = { t: 'other', what, d: 1 };
        break;
      }
      case 6: {
        if (wt !== 0) throw malformed('Type.nat', wt);
        const v = r.sint64();
        const n = typeof v === 'number' ? v : v.high === 0 ? v.low : -1;
        if (!(n >= 0 && n <= 37)) {
          throw new DarError('DAR_TYPE_INVALID', `"Type.nat" expected 0..37, got ${n}`);
        }
        result = { t: 'nat', n, d: 1 };
        break;
      }
      case 8: {
        if (wt !== 0) throw malformed('Type.interned', wt);
        const k = r.int32();
        if (k < 0 || k >= limit) {
          throw new DarError(
            k >= limit && k < ctx.tableRanges.length
              ? 'DAR_TYPE_FORWARD_REFERENCE'
              : 'DAR_INTERNED_INDEX_OUT_OF_RANGE',
            `"Type.interned" expected an index below ${limit}, got ${k}`,
          );
        }
        result = ctx.table[k] ?? decodeInterned(r, ctx, k, depth + 1);
        if (result.d + depth > ctx.maxDepth) {
          throw new DarError(
            'DAR_TYPE_TOO_DEEP',
            `type nesting expected at most ${ctx.maxDepth} levels, got more`,
          );
        }
        break;
      }
      default:
        skipField(r, wt, 'Type');
    }
  }
  assertAtEnd(r, end, 'Type');
  if (result === null)
    throw new DarError('DAR_TYPE_INVALID', '"Type" expected one case of its oneof, got none');
  return result;
}

/**
 * Decodes interned entry k (which may only reference entries < k) and memoizes it. Called at
 * nesting `depth` so that chains of not-yet-decoded entries count towards the depth limit and
 * the recursion stays bounded.
 */
function decodeInterned(r: WireReader, ctx: TypeContext, k: number, depth: number): LfType {
  const [s, e] = ctx.tableRanges[k]!;
  const saved = r.pos;
  r.pos = s;
  const t = decodeType(r, e, ctx, k, depth);
  r.pos = saved;
  ctx.table[k] = t;
  return t;
}

function decodeApplication(
  r: WireReader,
  kind: number,
  end: number,
  ctx: TypeContext,
  limit: number,
  depth: number,
): LfType {
  const args: LfType[] = [];
  // proto3: an int32 equal to 0 is absent on the wire, so interned indices default to 0
  let nameIndex = 0;
  let ref: TypeConRef | null = null;
  let builtin = 0;
  let lhs: LfType | null = null;
  let rhs: LfType | null = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (kind === 9) {
      // TApp { Type lhs = 1; Type rhs = 2 }
      if ((field === 1 || field === 2) && wt === 2) {
        const t = decodeType(r, readEnd(r, end, 'TApp'), ctx, limit, depth + 1);
        if (field === 1) lhs = t;
        else rhs = t;
      } else skipField(r, wt, 'TApp');
    } else if (field === 2 && wt === 2) {
      args.push(decodeType(r, readEnd(r, end, 'Type.args'), ctx, limit, depth + 1));
    } else if (kind === 1 && field === 3 && wt === 0) {
      nameIndex = r.int32();
    } else if (kind === 2 && field === 1 && wt === 2) {
      ref = decodeTypeConId(r, readEnd(r, end, 'Con.tycon'), ctx);
    } else if (kind === 3 && field === 1 && wt === 0) {
      builtin = r.int32();
    } else skipField(r, wt, 'Type');
  }
  assertAtEnd(r, end, 'Type');
  const d = 1 + args.reduce((m, a) => Math.max(m, a.d), 0);
  if (kind === 1) {
    return { t: 'var', name: str(ctx, nameIndex, 'Var.var_interned_str'), args, d };
  }
  if (kind === 2) {
    if (ref === null) throw new DarError('DAR_TYPE_INVALID', '"Con.tycon" expected, got none');
    return { t: 'con', ref, args, d };
  }
  if (kind === 3) return { t: 'builtin', b: builtin, args, d };
  if (lhs === null || rhs === null) throw new DarError('DAR_TYPE_INVALID', '"TApp" expected lhs and rhs');
  // flatten LF 2.2 binary application: tapp(f a1 .. an, b) = f a1 .. an b
  const dd = Math.max(lhs.d, rhs.d + 1);
  if (dd > ctx.maxDepth) {
    throw new DarError('DAR_TYPE_TOO_DEEP', `type nesting expected at most ${ctx.maxDepth} levels, got more`);
  }
  if (lhs.t === 'var' || lhs.t === 'con' || lhs.t === 'builtin')
    return { ...lhs, args: [...lhs.args, rhs], d: dd };
  return { t: 'other', what: `application of ${lhs.t}`, d: dd };
}

/** TypeConId { ModuleId module = 1; int32 name_interned_dname = 2 } */
function decodeTypeConId(r: WireReader, end: number, ctx: TypeContext): TypeConRef {
  let packageId: string | null = null;
  let moduleIndex = 0;
  let entityIndex = 0;
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    if (tag === ((1 << 3) | 2)) {
      const mEnd = readEnd(r, end, 'ModuleId');
      while (r.pos < mEnd) {
        const t2 = r.uint32();
        if (t2 === ((1 << 3) | 2))
          packageId = decodePackageRef(r, readEnd(r, mEnd, 'ModuleId.package_id'), ctx);
        else if (t2 === 2 << 3) moduleIndex = r.int32();
        else skipField(r, t2 & 7, 'ModuleId');
      }
      assertAtEnd(r, mEnd, 'ModuleId');
    } else if (tag === 2 << 3) {
      entityIndex = r.int32();
    } else skipField(r, wt, 'TypeConId');
  }
  assertAtEnd(r, end, 'TypeConId');
  if (packageId === null)
    throw new DarError('DAR_TYPE_INVALID', '"TypeConId.module.package_id" expected, got none');
  return {
    packageId,
    module: dname(ctx, moduleIndex, 'ModuleId.module_name_interned_dname'),
    entity: dname(ctx, entityIndex, 'TypeConId.name_interned_dname'),
  };
}

/** SelfOrImportedPackageId { Unit self = 1 | int32 imported_interned_str = 3 | int32 package_import_id = 4 } */
function decodePackageRef(r: WireReader, end: number, ctx: TypeContext): string {
  let id: string | null = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    if (tag >>> 3 === 1) {
      skipField(r, wt, 'self_package_id');
      id = ctx.selfId;
    } else if (tag === 3 << 3) {
      id = str(ctx, r.int32(), 'imported_package_id_interned_str');
    } else if (tag === 4 << 3) {
      const k = r.int32();
      const imports = ctx.imports ?? [];
      if (k < 0 || k >= imports.length) {
        throw new DarError(
          'DAR_INTERNED_INDEX_OUT_OF_RANGE',
          `"package_import_id" expected an index below ${imports.length}, got ${k}`,
        );
      }
      id = imports[k]!;
    } else skipField(r, wt, 'SelfOrImportedPackageId');
  }
  assertAtEnd(r, end, 'SelfOrImportedPackageId');
  if (id === null)
    throw new DarError('DAR_TYPE_INVALID', '"SelfOrImportedPackageId" expected one case, got none');
  if (id !== ctx.selfId) {
    if (!PACKAGE_ID.test(id)) {
      throw new DarError(
        'DAR_TYPE_INVALID',
        `package reference expected 64 lower-case hex, got ${JSON.stringify(id)}`,
      );
    }
    ctx.referenced.add(id);
  }
  return id;
}

export function str(ctx: Pick<TypeContext, 'strings'>, k: number, what: string): string {
  const s = ctx.strings.get(k);
  if (s === undefined) {
    throw new DarError(
      'DAR_INTERNED_INDEX_OUT_OF_RANGE',
      `"${what}" expected an interned string index below ${ctx.strings.length}, got ${k}`,
    );
  }
  return s;
}

export function dname(ctx: Pick<TypeContext, 'dottedNames'>, k: number, what: string): readonly string[] {
  const d = ctx.dottedNames.get(k);
  if (d === undefined) {
    throw new DarError(
      'DAR_INTERNED_INDEX_OUT_OF_RANGE',
      `"${what}" expected an interned dotted-name index below ${ctx.dottedNames.length}, got ${k}`,
    );
  }
  return d;
}

function malformed(what: string, wt: number): DarError {
  return new DarError('DAR_ARCHIVE_MALFORMED', `"${what}" has an unexpected wire type ${wt}`);
}
