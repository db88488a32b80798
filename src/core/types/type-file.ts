/**
 * The JSON type file: a hand-writable, reviewable source of Daml type definitions for V12 hashing
 * (docs/protocol/contract-id.md §6.4 "Where to get types"; format documented in docs/type-file.md).
 *
 * `parseTypeFile` validates strictly (unknown keys, unbound type variables, arity of references
 * inside the file, 64-hex package ids) and throws DamlTypeError TYPE_FILE_INVALID with the JSON
 * path; `formatTypeFile` writes the same format back (stable key order, one package per entry).
 */
import { formatGot } from '../../errors/base.js';
import { DamlTypeError } from '../../errors/types.js';
import type { DamlType, DataTypeDef, FieldDef, PackageTypes, QualifiedName } from './daml-type.js';
import { formatQualifiedName } from './daml-type.js';
import { parseQualifiedName } from './type-env.js';

export const TYPE_FILE_FORMAT = 'reserve-audit/type-file@1';
export const TYPE_FILE_MAX_CHARS = 16 * 1024 * 1024;
const MAX_TYPE_DEPTH = 64;

/** Provenance fields kept verbatim (style.md "Vectors are JSON files with provenance"). */
export interface TypeFileProvenance {
  readonly source_repo?: string;
  readonly source_path?: string;
  readonly source_commit?: string;
  readonly notes?: string;
}

export interface TypeFile {
  readonly packages: readonly PackageTypes[];
  readonly provenance: TypeFileProvenance;
}

const PRIMS: Readonly<Record<string, DamlType>> = {
  Unit: { kind: 'unit' },
  Bool: { kind: 'bool' },
  Int64: { kind: 'int64' },
  Text: { kind: 'text' },
  Party: { kind: 'party' },
  Date: { kind: 'date' },
  Timestamp: { kind: 'timestamp' },
  ContractId: { kind: 'contractId' },
};
const PRIM_NAME: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(PRIMS).map(([k, v]) => [v.kind, k]),
);

const PROVENANCE_KEYS = ['source_repo', 'source_path', 'source_commit', 'notes'] as const;
const PACKAGE_ID_RE = /^[0-9a-f]{64}$/;

function fail(path: string, rule: string, got: unknown): never {
  throw new DamlTypeError('TYPE_FILE_INVALID', `"${path}" expected ${rule}, got ${formatGot(got)}`, {
    details: { path },
  });
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function checkKeys(o: Record<string, unknown>, allowed: readonly string[], path: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) fail(`${path}.${k}`, `one of the keys ${allowed.join(', ')}`, k);
  }
}

function nonEmptyString(x: unknown, path: string): string {
  if (typeof x !== 'string' || x === '') fail(path, 'a non-empty string', x);
  return x;
}

/** Parses and validates a type file (a JSON string or an already-parsed value). Throws DamlTypeError. */
export function parseTypeFile(json: unknown): TypeFile {
  let doc: unknown = json;
  if (typeof json === 'string') {
    if (json.length > TYPE_FILE_MAX_CHARS)
      fail('$', `at most ${TYPE_FILE_MAX_CHARS} characters`, `${json.length} characters`);
    try {
      doc = JSON.parse(json);
    } catch (e) {
      throw new DamlTypeError(
        'TYPE_FILE_INVALID',
        `"$" expected JSON, got a syntax error: ${(e as Error).message}`,
        {
          cause: e,
        },
      );
    }
  }
  if (!isObject(doc)) fail('$', 'a JSON object', doc);
  checkKeys(doc, ['format', 'packages', ...PROVENANCE_KEYS], '$');
  if (doc.format !== TYPE_FILE_FORMAT) fail('$.format', JSON.stringify(TYPE_FILE_FORMAT), doc.format);
  const provenance: Record<string, string> = {};
  for (const k of PROVENANCE_KEYS) {
    if (doc[k] !== undefined) {
      if (typeof doc[k] !== 'string') fail(`$.${k}`, 'a string', doc[k]);
      provenance[k] = doc[k] as string;
    }
  }
  if (!Array.isArray(doc.packages) || doc.packages.length === 0)
    fail('$.packages', 'a non-empty array', doc.packages);
  const packages = doc.packages.map((p, i) => parsePackage(p, `$.packages[${i}]`));
  const ids = new Set<string>();
  for (const [i, p] of packages.entries()) {
    if (ids.has(p.packageId)) fail(`$.packages[${i}].id`, 'a package id not listed before', p.packageId);
    ids.add(p.packageId);
  }
  checkReferences(packages);
  return { packages, provenance };
}

function parsePackage(p: unknown, path: string): PackageTypes {
  if (!isObject(p)) fail(path, 'an object', p);
  checkKeys(p, ['id', 'name', 'version', 'templates', 'dataTypes'], path);
  if (typeof p.id !== 'string' || !PACKAGE_ID_RE.test(p.id))
    fail(`${path}.id`, 'a 64-char lower-case hex package id', p.id);
  const packageId = p.id;
  const name = nonEmptyString(p.name, `${path}.name`);
  const version = nonEmptyString(p.version, `${path}.version`);
  if (!isObject(p.dataTypes)) fail(`${path}.dataTypes`, 'an object keyed by "Module:Entity"', p.dataTypes);
  const dataTypes = new Map<string, DataTypeDef>();
  for (const [qn, d] of Object.entries(p.dataTypes)) {
    const q = parseQualifiedName(qn);
    if (q === undefined) fail(`${path}.dataTypes`, 'keys of the form "Mod.Sub:Entity.Sub"', qn);
    dataTypes.set(
      formatQualifiedName(q),
      parseDataType(d, q, packageId, `${path}.dataTypes[${JSON.stringify(qn)}]`),
    );
  }
  const templates = new Set<string>();
  if (p.templates !== undefined) {
    if (!Array.isArray(p.templates)) fail(`${path}.templates`, 'an array of "Module:Entity"', p.templates);
    for (const [i, t] of p.templates.entries()) {
      const tp = `${path}.templates[${i}]`;
      const q = typeof t === 'string' ? parseQualifiedName(t) : undefined;
      if (q === undefined) fail(tp, 'a "Module:Entity" name', t);
      const key = formatQualifiedName(q);
      if (dataTypes.get(key)?.kind !== 'record') fail(tp, 'the name of a record type of this package', t);
      templates.add(key);
    }
  }
  return { packageId, name, version, dataTypes, templates };
}

function parseDataType(d: unknown, name: QualifiedName, pkgId: string, path: string): DataTypeDef {
  if (!isObject(d)) fail(path, 'an object with "record", "variant" or "enum"', d);
  checkKeys(d, ['params', 'record', 'variant', 'enum'], path);
  const params: string[] = [];
  if (d.params !== undefined) {
    if (!Array.isArray(d.params)) fail(`${path}.params`, 'an array of type variable names', d.params);
    for (const [i, x] of d.params.entries()) {
      const s = nonEmptyString(x, `${path}.params[${i}]`);
      if (params.includes(s)) fail(`${path}.params[${i}]`, 'distinct type variable names', s);
      params.push(s);
    }
  }
  const kinds = (['record', 'variant', 'enum'] as const).filter((k) => d[k] !== undefined);
  if (kinds.length !== 1)
    fail(path, 'exactly one of "record", "variant", "enum"', kinds.join(', ') || 'none');
  const kind = kinds[0] as 'record' | 'variant' | 'enum';
  const body = d[kind];
  if (!Array.isArray(body)) fail(`${path}.${kind}`, 'an array', body);
  const bound = new Set(params);
  if (kind === 'enum') {
    const ctors = body.map((c, i) => nonEmptyString(c, `${path}.enum[${i}]`));
    if (new Set(ctors).size !== ctors.length) fail(`${path}.enum`, 'distinct constructor names', ctors);
    return { kind: 'enum', name, params, constructors: ctors };
  }
  const entries: FieldDef[] = body.map((e, i) => {
    const ep = `${path}.${kind}[${i}]`;
    if (!Array.isArray(e) || e.length !== 2) fail(ep, '[name, type]', e);
    return { name: nonEmptyString(e[0], `${ep}[0]`), type: parseType(e[1], pkgId, bound, `${ep}[1]`, 0) };
  });
  if (new Set(entries.map((e) => e.name)).size !== entries.length) {
    fail(
      `${path}.${kind}`,
      'distinct names',
      entries.map((e) => e.name),
    );
  }
  return kind === 'record'
    ? { kind: 'record', name, params, fields: entries }
    : { kind: 'variant', name, params, constructors: entries };
}

function parseType(
  t: unknown,
  pkgId: string,
  bound: ReadonlySet<string>,
  path: string,
  depth: number,
): DamlType {
  if (depth > MAX_TYPE_DEPTH) fail(path, `a type nested at most ${MAX_TYPE_DEPTH} deep`, 'deeper');
  if (typeof t === 'string') {
    const p = PRIMS[t];
    if (p === undefined) fail(path, `a type (${Object.keys(PRIMS).join(', ')} or an object)`, t);
    return p;
  }
  if (!isObject(t)) fail(path, 'a type', t);
  const keys = Object.keys(t);
  const sub = (x: unknown, suffix: string) => parseType(x, pkgId, bound, `${path}.${suffix}`, depth + 1);
  if (keys.length === 1) {
    const k = keys[0] as string;
    const x = t[k];
    switch (k) {
      case 'numeric':
        if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 37)
          fail(`${path}.numeric`, 'a scale 0..37', x);
        return { kind: 'numeric', scale: x };
      case 'optional':
        return { kind: 'optional', type: sub(x, k) };
      case 'list':
        return { kind: 'list', type: sub(x, k) };
      case 'textMap':
        return { kind: 'textMap', value: sub(x, k) };
      case 'genMap':
        if (!Array.isArray(x) || x.length !== 2) fail(`${path}.genMap`, '[keyType, valueType]', x);
        return { kind: 'genMap', key: sub(x[0], 'genMap[0]'), value: sub(x[1], 'genMap[1]') };
      case 'var': {
        const name = nonEmptyString(x, `${path}.var`);
        if (!bound.has(name))
          fail(`${path}.var`, `a type parameter of the data type (${[...bound].join(', ')})`, name);
        return { kind: 'var', name };
      }
    }
  }
  if (typeof t.con === 'string') {
    checkKeys(t, ['con', 'package', 'args'], path);
    const q = parseQualifiedName(t.con);
    if (q === undefined) fail(`${path}.con`, 'a "Module:Entity" name', t.con);
    let ref = pkgId;
    if (t.package !== undefined) {
      if (typeof t.package !== 'string' || !PACKAGE_ID_RE.test(t.package)) {
        fail(`${path}.package`, 'a 64-char lower-case hex package id', t.package);
      }
      ref = t.package;
    }
    const args = t.args === undefined ? [] : t.args;
    if (!Array.isArray(args)) fail(`${path}.args`, 'an array of types', args);
    return {
      kind: 'con',
      ref: { packageId: ref, ...q },
      args: args.map((a, i) => sub(a, `args[${i}]`)),
    };
  }
  return fail(path, 'a type object (numeric, optional, list, textMap, genMap, var or con)', t);
}

/** References into packages of the same file must name an existing data type with the right arity. */
function checkReferences(packages: readonly PackageTypes[]): void {
  const byId = new Map(packages.map((p) => [p.packageId, p]));
  const visit = (t: DamlType, where: string): void => {
    switch (t.kind) {
      case 'optional':
      case 'list':
        visit(t.type, where);
        return;
      case 'textMap':
        visit(t.value, where);
        return;
      case 'genMap':
        visit(t.key, where);
        visit(t.value, where);
        return;
      case 'con': {
        for (const a of t.args) visit(a, where);
        const p = byId.get(t.ref.packageId);
        if (p === undefined) return; // defined elsewhere (another file or a DAR)
        const d = p.dataTypes.get(formatQualifiedName(t.ref));
        if (d === undefined)
          fail(where, `a data type defined in package ${p.name}`, formatQualifiedName(t.ref));
        if (d.params.length !== t.args.length) {
          fail(where, `${d.params.length} type arguments for ${formatQualifiedName(t.ref)}`, t.args.length);
        }
        return;
      }
      default:
        return;
    }
  };
  for (const p of packages) {
    for (const [qn, d] of p.dataTypes) {
      if (d.kind === 'enum') continue;
      const list = d.kind === 'record' ? d.fields : d.constructors;
      for (const f of list) visit(f.type, `${p.name}:${qn}.${f.name}`);
    }
  }
}

function formatType(t: DamlType, pkgId: string): unknown {
  switch (t.kind) {
    case 'numeric':
      return { numeric: t.scale };
    case 'optional':
    case 'list':
      return { [t.kind]: formatType(t.type, pkgId) };
    case 'textMap':
      return { textMap: formatType(t.value, pkgId) };
    case 'genMap':
      return { genMap: [formatType(t.key, pkgId), formatType(t.value, pkgId)] };
    case 'var':
      return { var: t.name };
    case 'con': {
      const o: Record<string, unknown> = { con: formatQualifiedName(t.ref) };
      if (t.ref.packageId !== pkgId) o.package = t.ref.packageId;
      if (t.args.length > 0) o.args = t.args.map((a) => formatType(a, pkgId));
      return o;
    }
    default:
      return PRIM_NAME[t.kind];
  }
}

/** Writes packages as a type file (pretty JSON, data types sorted by name, trailing newline). */
export function formatTypeFile(
  packages: Iterable<PackageTypes>,
  provenance: TypeFileProvenance = {},
): string {
  const doc: Record<string, unknown> = { format: TYPE_FILE_FORMAT };
  for (const k of PROVENANCE_KEYS) if (provenance[k] !== undefined) doc[k] = provenance[k];
  doc.packages = [...packages].map((p) => {
    const dataTypes: Record<string, unknown> = {};
    for (const qn of [...p.dataTypes.keys()].sort()) {
      const d = p.dataTypes.get(qn) as DataTypeDef;
      const o: Record<string, unknown> = {};
      if (d.params.length > 0) o.params = [...d.params];
      if (d.kind === 'enum') o.enum = [...d.constructors];
      else {
        o[d.kind] = (d.kind === 'record' ? d.fields : d.constructors).map((f) => [
          f.name,
          formatType(f.type, p.packageId),
        ]);
      }
      dataTypes[qn] = o;
    }
    return {
      id: p.packageId,
      name: p.name,
      version: p.version,
      templates: [...p.templates].sort(),
      dataTypes,
    };
  });
  return `${JSON.stringify(doc, null, 2)}\n`;
}
