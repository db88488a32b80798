/**
 * LF 2.x `Package` → the data types a V12 verifier needs (docs/protocol/dar-format.md §4.1, §4.2, §5):
 * one scan records the byte ranges of the interning tables (strings, dotted names, types —
 * decoded lazily when first referenced, see lf2-tables.ts / lf2-types.ts), then metadata, package
 * imports, and the modules' serializable data types and template names are decoded. Values,
 * exceptions, interfaces, synonyms, kinds and expressions are skipped by length, never decoded.
 */
import { DarError } from '../../../errors/dar.js';
import {
  type DataTypeDef,
  type FieldDef,
  formatQualifiedName,
  type PackageTypes,
  type QualifiedName,
} from '../daml-type.js';
import { toDamlType } from './lf2-serializable.js';
import { createDottedNameTable, createStringTable, type InternedTable } from './lf2-tables.js';
import { decodeType, dname, type LfType, str, type TypeContext } from './lf2-types.js';
import {
  assertAtEnd,
  createWireReader,
  readEnd,
  readInt32s,
  readOnlyInt32,
  readString,
  skipField,
  type WireReader,
  withWireErrors,
} from './wire.js';

/** The types of one LF 2.x package plus what the DAR loader reports about it. */
export interface LfPackageTypes extends PackageTypes {
  /** e.g. "2.1" */
  readonly lfVersion: string;
  /** other packages referenced by this package's types or imports, sorted */
  readonly dependencies: readonly string[];
  /** PackageMetadata.upgraded_package_id, when present (informational) */
  readonly upgradedPackageId: string | null;
}

export interface Lf2DecodeOptions {
  /** the computed package id (hex SHA-256 of the ArchivePayload) */
  readonly packageId: string;
  readonly lfVersion: string;
  /** deepest type nesting accepted (default 100) */
  readonly maxTypeDepth?: number;
}

type Range = readonly [number, number];

/** Decodes the `daml_lf_2` bytes of an ArchivePayload. */
export function decodeLf2Package(bytes: Uint8Array, opts: Lf2DecodeOptions): LfPackageTypes {
  return withWireErrors('Package', () => decode(createWireReader(bytes), bytes.length, opts));
}

function decode(r: WireReader, end: number, opts: Lf2DecodeOptions): LfPackageTypes {
  const stringRanges: number[] = [];
  const dnameRanges: number[] = [];
  const typeRanges: Range[] = [];
  const moduleRanges: Range[] = [];
  let metadata: Range | null = null;
  let importsRange: Range | null = null;
  while (r.pos < end) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if ((field === 2 || field === 3) && wt === 2) {
      // interning tables: ranges only, entries are decoded when referenced (lf2-tables.ts)
      const e = readEnd(r, end, 'Package');
      (field === 2 ? stringRanges : dnameRanges).push(r.pos, e);
      r.pos = e;
    } else if ((field === 1 || field === 4 || field === 5 || field === 9) && wt === 2) {
      const e = readEnd(r, end, 'Package');
      const range: Range = [r.pos, e];
      if (field === 1) moduleRanges.push(range);
      else if (field === 4) metadata = range;
      else if (field === 5) typeRanges.push(range);
      else importsRange = range;
      r.pos = e;
    } else skipField(r, wt, 'Package');
  }
  assertAtEnd(r, end, 'Package');

  const strings = createStringTable(r.buf, stringRanges);
  const dottedNames = createDottedNameTable(r, dnameRanges, strings);

  let imports: string[] | null = null;
  if (importsRange !== null) {
    const [s, e] = importsRange;
    r.pos = s;
    imports = [];
    while (r.pos < e) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | 2)) imports.push(readString(r, e, 'PackageImports.imported_packages'));
      else skipField(r, tag & 7, 'PackageImports');
    }
    assertAtEnd(r, e, 'PackageImports');
  }

  if (metadata === null) throw new DarError('DAR_ARCHIVE_MALFORMED', '"Package.metadata" expected, got none');
  const meta = decodeMetadata(r, metadata, strings);

  const ctx: TypeContext = {
    strings,
    dottedNames,
    imports,
    selfId: opts.packageId,
    table: new Array<LfType | undefined>(typeRanges.length),
    tableRanges: typeRanges,
    maxDepth: opts.maxTypeDepth ?? 100,
    referenced: new Set(imports ?? []),
    damlTypes: new WeakMap(),
  };
  // interned types are decoded lazily, when a serializable data type first references them

  const dataTypes = new Map<string, DataTypeDef>();
  const templates = new Set<string>();
  for (const [s, e] of moduleRanges) decodeModule(r, s, e, ctx, dataTypes, templates);
  ctx.referenced.delete(opts.packageId);
  return {
    packageId: opts.packageId,
    name: meta.name,
    version: meta.version,
    dataTypes,
    templates,
    lfVersion: opts.lfVersion,
    dependencies: [...ctx.referenced].sort(),
    upgradedPackageId: meta.upgraded,
  };
}

function decodeMetadata(
  r: WireReader,
  [s, e]: Range,
  strings: InternedTable<string>,
): { name: string; version: string; upgraded: string | null } {
  r.pos = s;
  // proto3: interned index 0 is absent on the wire
  let name = 0;
  let version = 0;
  let upgraded: string | null = null;
  while (r.pos < e) {
    const tag = r.uint32();
    if (tag === 1 << 3) name = r.int32();
    else if (tag === 2 << 3) version = r.int32();
    else if (tag === ((3 << 3) | 2)) {
      const ue = readEnd(r, e, 'PackageMetadata.upgraded_package_id');
      let k = 0;
      while (r.pos < ue) {
        const t2 = r.uint32();
        if (t2 === 1 << 3) k = r.int32();
        else skipField(r, t2 & 7, 'UpgradedPackageId');
      }
      upgraded = str({ strings }, k, 'UpgradedPackageId');
      assertAtEnd(r, ue, 'UpgradedPackageId');
    } else skipField(r, tag & 7, 'PackageMetadata');
  }
  assertAtEnd(r, e, 'PackageMetadata');
  return {
    name: str({ strings }, name, 'PackageMetadata.name_interned_str'),
    version: str({ strings }, version, 'PackageMetadata.version_interned_str'),
    upgraded,
  };
}

function decodeModule(
  r: WireReader,
  s: number,
  e: number,
  ctx: TypeContext,
  dataTypes: Map<string, DataTypeDef>,
  templates: Set<string>,
): void {
  r.pos = s;
  let moduleIndex = 0;
  const defs: Range[] = [];
  const tmpls: number[] = [];
  while (r.pos < e) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (tag === 1 << 3) moduleIndex = r.int32();
    else if (field === 4 && wt === 2) {
      const de = readEnd(r, e, 'Module.data_types');
      defs.push([r.pos, de]);
      r.pos = de;
    } else if (field === 6 && wt === 2) {
      // DefTemplate: only tycon_interned_dname = 1 is read
      tmpls.push(readOnlyInt32(r, readEnd(r, e, 'Module.templates'), 1, 'DefTemplate'));
    } else skipField(r, wt, 'Module');
  }
  assertAtEnd(r, e, 'Module');
  const module = dname(ctx, moduleIndex, 'Module.name_interned_dname');
  for (const k of tmpls) {
    templates.add(formatQualifiedName({ module, entity: dname(ctx, k, 'DefTemplate.tycon_interned_dname') }));
  }
  for (const [ds, de] of defs) {
    const def = decodeDefDataType(r, ds, de, module, ctx);
    if (def === null) continue;
    const key = formatQualifiedName(def.name);
    if (dataTypes.has(key)) {
      throw new DarError('DAR_DUPLICATE_DEFINITION', `data type expected once per package, got ${key} twice`);
    }
    dataTypes.set(key, def);
  }
}

/** Returns null for data types that are not serializable (they never appear in a contract). */
function decodeDefDataType(
  r: WireReader,
  s: number,
  e: number,
  module: readonly string[],
  ctx: TypeContext,
): DataTypeDef | null {
  r.pos = s;
  let entityIndex = 0;
  const params: string[] = [];
  let serializable = false;
  let kind: 'record' | 'variant' | 'enum' | 'interface' | null = null;
  let fieldsRange: Range | null = null;
  let ctors: number[] = [];
  while (r.pos < e) {
    const tag = r.uint32();
    const wt = tag & 7;
    const field = tag >>> 3;
    if (tag === 2 << 3) entityIndex = r.int32();
    else if (tag === 4 << 3) serializable = r.uint32() !== 0;
    else if (field === 3 && wt === 2) {
      const k = readOnlyInt32(r, readEnd(r, e, 'DefDataType.params'), 3, 'TypeVarWithKind');
      params.push(str(ctx, k, 'TypeVarWithKind.var_interned_str'));
    } else if ((field === 5 || field === 6) && wt === 2) {
      kind = field === 5 ? 'record' : 'variant';
      const fe = readEnd(r, e, 'DefDataType.fields');
      fieldsRange = [r.pos, fe];
      r.pos = fe;
    } else if (field === 7 && wt === 2) {
      kind = 'enum';
      const ce = readEnd(r, e, 'DefDataType.enum');
      ctors = [];
      while (r.pos < ce) {
        const t2 = r.uint32();
        if (t2 >>> 3 === 2) readInt32s(r, t2 & 7, ce, ctors, 'EnumConstructors.constructors_interned_str');
        else skipField(r, t2 & 7, 'EnumConstructors');
      }
      assertAtEnd(r, ce, 'EnumConstructors');
    } else if (field === 8) {
      kind = 'interface';
      skipField(r, wt, 'DefDataType.interface');
    } else skipField(r, wt, 'DefDataType');
  }
  assertAtEnd(r, e, 'DefDataType');
  const entity = dname(ctx, entityIndex, 'DefDataType.name_interned_dname');
  if (!serializable || kind === 'interface') return null;
  const name: QualifiedName = { module, entity };
  const where = formatQualifiedName(name);
  if (kind === null) throw new DarError('DAR_TYPE_INVALID', `${where}: expected record, variant or enum`);
  if (kind === 'enum') {
    if (params.length > 0)
      throw new DarError('DAR_TYPE_INVALID', `${where}: enum expected no type parameters`);
    return { kind, name, params, constructors: ctors.map((k) => str(ctx, k, 'EnumConstructors')) };
  }
  if (fieldsRange === null) throw new DarError('DAR_TYPE_INVALID', `${where}: expected fields`);
  r.pos = fieldsRange[0];
  const fields = decodeFields(r, fieldsRange[1], ctx);
  const defs: FieldDef[] = fields.map((f) => ({
    name: f.name,
    type: toDamlType(f.type, `${where}.${f.name}`, ctx.damlTypes),
  }));
  return kind === 'record'
    ? { kind, name, params, fields: defs }
    : { kind, name, params, constructors: defs };
}

/** Fields { repeated FieldWithType fields = 1 }; FieldWithType { field_interned_str = 3; Type type = 2 } */
function decodeFields(r: WireReader, e: number, ctx: TypeContext): { name: string; type: LfType }[] {
  const out: { name: string; type: LfType }[] = [];
  while (r.pos < e) {
    const tag = r.uint32();
    if (tag !== ((1 << 3) | 2)) {
      skipField(r, tag & 7, 'Fields');
      continue;
    }
    const fe = readEnd(r, e, 'FieldWithType');
    let name = str(ctx, 0, 'FieldWithType.field_interned_str');
    let type: LfType | null = null;
    while (r.pos < fe) {
      const t2 = r.uint32();
      if (t2 === 3 << 3) name = str(ctx, r.int32(), 'FieldWithType.field_interned_str');
      else if (t2 === ((2 << 3) | 2))
        type = decodeType(r, readEnd(r, fe, 'FieldWithType.type'), ctx, ctx.tableRanges.length, 1);
      else skipField(r, t2 & 7, 'FieldWithType');
    }
    assertAtEnd(r, fe, 'FieldWithType');
    if (type === null) throw new DarError('DAR_TYPE_INVALID', '"FieldWithType.type" expected, got none');
    out.push({ name, type });
  }
  assertAtEnd(r, e, 'Fields');
  return out;
}
