/**
 * Derives the fixture type files (fixtures/types/*.types.json) from the V12 blob vectors'
 * `typedCreateArgForV12` trees (test/vectors/contract-id-test-vectors.json;
 * docs/protocol/contract-id.md §10.3).
 *
 * The typed trees give record names, field labels in order, and the types of every non-empty
 * value. What a tree cannot show — type parameters, the element type of an empty list, the
 * content type of a `None`, trailing optional fields the blob omits, phantom type arguments — is
 * listed in SUPPLEMENT below, written from the Splice Daml sources
 * (hyperledger-labs/splice daml/splice-amulet/daml/Splice/*.daml, daml-stdlib DA.*.Types) and
 * checked against the real splice-amulet-0.1.17.dar by test/types/type-fixtures.test.ts.
 *
 * Run `npx tsx test/types/derive-type-file.ts` to rewrite the fixtures; the test re-derives them
 * and fails when a committed fixture differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTypeFile, TYPE_FILE_FORMAT } from '../../src/core/types/type-file.js';
import { repoRoot } from '../helpers/shared.js';
import { type BlobVector, loadContractIdVectors, type VectorValue } from '../helpers/vectors.js';

type TypeJson = unknown;
interface DefJson {
  params?: string[];
  record?: [string, TypeJson][];
  enum?: string[];
}

const SPLICE_AMULET = {
  id: '6c5802f86709a0ad4784af81f0bab40f3070b2f58128d8843da1e1784c147802',
  name: 'splice-amulet',
  version: '0.1.17',
};
/** The stable daml-stdlib / daml-prim packages inside splice-amulet-0.1.17.dar (ids = SHA-256 of their payloads). */
const STD_PACKAGES: Record<string, { id: string; name: string; version: string }> = {
  'DA.Types': {
    id: '5aee9b21b8e9a4c4975b5f4c4198e6e6e8469df49e2010820e792f393db870f4',
    name: 'daml-prim-DA-Types',
    version: '1.0.0',
  },
  'DA.Time.Types': {
    id: 'b70db8369e1c461d5c70f1c86f526a29e9776c655e6ffc2560f95b05ccb8b946',
    name: 'daml-stdlib-DA-Time-Types',
    version: '1.0.0',
  },
  'DA.Set.Types': {
    id: 'c3bb0c5d04799b3f11bad7c3c102963e115cf53da3e4afcbcfd9f06ebd82b4ff',
    name: 'daml-stdlib-DA-Set-Types',
    version: '1.0.0',
  },
};

function packageOf(qn: string): { id: string; name: string; version: string } {
  const mod = qn.slice(0, qn.indexOf(':'));
  return STD_PACKAGES[mod] ?? SPLICE_AMULET;
}

/** A type-con reference in type-file notation, seen from the package `home`. */
function con(qn: string, args: TypeJson[] = [], home = SPLICE_AMULET.id): TypeJson {
  const o: Record<string, unknown> = { con: qn };
  const p = packageOf(qn).id;
  if (p !== home) o.package = p;
  if (args.length > 0) o.args = args;
  return o;
}

const N10 = { numeric: 10 };
const STD_HOME = (qn: string) => packageOf(qn).id;

/** What the typed trees cannot show (see the module comment). */
const SUPPLEMENT: Record<
  string,
  {
    whole?: DefJson;
    params?: string[];
    fieldTypes?: Record<string, TypeJson>;
    extraFields?: [string, TypeJson][];
  }
> = {
  'DA.Types:Tuple2': {
    whole: {
      params: ['t1', 't2'],
      record: [
        ['_1', { var: 't1' }],
        ['_2', { var: 't2' }],
      ],
    },
  },
  'DA.Set.Types:Set': {
    whole: { params: ['k'], record: [['map', { genMap: [{ var: 'k' }, 'Unit'] }]] },
  },
  'Splice.Schedule:Schedule': {
    whole: {
      params: ['t', 'a'],
      record: [
        ['initialValue', { var: 'a' }],
        ['futureValues', { list: con('DA.Types:Tuple2', [{ var: 't' }, { var: 'a' }]) }],
      ],
    },
  },
  'Splice.AmuletConfig:USD': { whole: { enum: ['USD'] } },
  'Splice.AmuletConfig:TransferConfig': { params: ['unit'] },
  'Splice.AmuletConfig:AmuletConfig': {
    params: ['unit'],
    fieldTypes: {
      transferConfig: con('Splice.AmuletConfig:TransferConfig', [{ var: 'unit' }]),
      issuanceCurve: con('Splice.Schedule:Schedule', [
        con('DA.Time.Types:RelTime'),
        con('Splice.Issuance:IssuanceConfig'),
      ]),
      transferPreapprovalFee: { optional: N10 },
    },
    extraFields: [
      ['optDevelopmentFundManager', { optional: 'Party' }],
      ['externalPartyConfigStateTickDuration', { optional: con('DA.Time.Types:RelTime') }],
    ],
  },
  'Splice.AmuletRules:AmuletRules': {
    fieldTypes: {
      configSchedule: con('Splice.Schedule:Schedule', [
        'Timestamp',
        con('Splice.AmuletConfig:AmuletConfig', [con('Splice.AmuletConfig:USD')]),
      ]),
    },
    extraFields: [['contractStateSchemaVersion', { optional: 'Int64' }]],
  },
  'Splice.Round:OpenMiningRound': {
    fieldTypes: {
      transferConfigUsd: con('Splice.AmuletConfig:TransferConfig', [con('Splice.AmuletConfig:USD')]),
    },
  },
  'Splice.Fees:SteppedRate': {
    fieldTypes: { steps: { list: con('DA.Types:Tuple2', [N10, N10]) } },
  },
  'Splice.Issuance:IssuanceConfig': {
    extraFields: [['optDevelopmentFundPercentage', { optional: N10 }]],
  },
  'Splice.DecentralizedSynchronizer:AmuletDecentralizedSynchronizerConfig': {
    fieldTypes: { requiredSynchronizers: con('DA.Set.Types:Set', ['Text']) },
  },
};

function kindAndValue(v: VectorValue): [string, unknown] {
  const k = Object.keys(v)[0] as string;
  return [k, v[k]];
}

/** The type of a typed-tree value when it can be seen from the value itself; undefined otherwise. */
function inferType(v: VectorValue, home: string): TypeJson | undefined {
  const [k, x] = kindAndValue(v);
  switch (k) {
    case 'unit':
      return 'Unit';
    case 'bool':
      return 'Bool';
    case 'int64':
      return 'Int64';
    case 'text':
      return 'Text';
    case 'party':
      return 'Party';
    case 'date':
      return 'Date';
    case 'timestamp':
      return 'Timestamp';
    case 'contractId':
      return 'ContractId';
    case 'numeric': {
      const s = x as string;
      return { numeric: s.length - s.indexOf('.') - 1 };
    }
    case 'optional': {
      if (x === null) return undefined;
      const t = inferType(x as VectorValue, home);
      return t === undefined ? undefined : { optional: t };
    }
    case 'list': {
      const xs = x as VectorValue[];
      if (xs.length === 0) return undefined;
      const t = inferType(xs[0] as VectorValue, home);
      return t === undefined ? undefined : { list: t };
    }
    case 'record':
    case 'variant':
    case 'enum': {
      const qn = (x as { type: string }).type;
      const s = SUPPLEMENT[qn];
      if ((s?.whole?.params ?? s?.params ?? []).length > 0) return undefined; // needs explicit arguments
      return con(qn, [], home);
    }
    default:
      return undefined;
  }
}

/** Walks a typed tree and collects the data types it shows, completed by SUPPLEMENT. */
function deriveDataTypes(tree: VectorValue): Map<string, DefJson> {
  const defs = new Map<string, DefJson>();
  const put = (qn: string, d: DefJson) => {
    const old = defs.get(qn);
    if (old !== undefined && JSON.stringify(old) !== JSON.stringify(d)) {
      throw new Error(
        `${qn}: two different definitions derived:\n${JSON.stringify(old)}\n${JSON.stringify(d)}`,
      );
    }
    defs.set(qn, d);
  };
  const walk = (v: VectorValue): void => {
    const [k, x] = kindAndValue(v);
    if (k === 'optional' && x !== null) walk(x as VectorValue);
    if (k === 'list') for (const e of x as VectorValue[]) walk(e);
    if (k === 'textMap') for (const [, e] of x as [string, VectorValue][]) walk(e);
    if (k === 'genMap') {
      for (const [a, b] of x as [VectorValue, VectorValue][]) {
        walk(a);
        walk(b);
      }
    }
    if (k === 'variant' || k === 'enum') {
      throw new Error(
        `variant/enum ${(x as { type: string }).type}: constructors cannot be derived; add a SUPPLEMENT`,
      );
    }
    if (k !== 'record') return;
    const r = x as { type: string; fields: [string, VectorValue][] };
    const home = STD_HOME(r.type);
    const s = SUPPLEMENT[r.type];
    if (s?.whole !== undefined) put(r.type, s.whole);
    else {
      const fields: [string, TypeJson][] = r.fields.map(([label, fv]) => {
        const t = s?.fieldTypes?.[label] ?? inferType(fv, home);
        if (t === undefined)
          throw new Error(`${r.type}.${label}: type cannot be derived from the tree; add a SUPPLEMENT`);
        return [label, t];
      });
      const d: DefJson = {};
      if (s?.params !== undefined) d.params = s.params;
      d.record = [...fields, ...(s?.extraFields ?? [])];
      put(r.type, d);
    }
    for (const [, fv] of r.fields) walk(fv);
  };
  walk(tree);
  // Add supplement-only types that are referenced but never appear as values (phantom arguments).
  const refs = (t: TypeJson, out: string[]): void => {
    if (typeof t !== 'object' || t === null) return;
    const o = t as Record<string, unknown>;
    if (typeof o.con === 'string') out.push(o.con);
    for (const v of Object.values(o)) {
      if (Array.isArray(v)) for (const a of v) refs(a, out);
      else refs(v, out);
    }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of [...defs.values()]) {
      const out: string[] = [];
      for (const [, t] of d.record ?? []) refs(t, out);
      for (const qn of out) {
        if (defs.has(qn)) continue;
        const w = SUPPLEMENT[qn]?.whole;
        if (w === undefined)
          throw new Error(`${qn} is referenced but neither seen in the tree nor supplemented`);
        defs.set(qn, w);
        changed = true;
      }
    }
  }
  return defs;
}

/** The type-file JSON document for some blob vectors (one template each). */
function deriveTypeFileJson(vectors: readonly BlobVector[], notes: string): string {
  const all = new Map<string, DefJson>();
  const templates: string[] = [];
  for (const v of vectors) {
    if (v.typedCreateArgForV12 === undefined) throw new Error(`${v.name} has no typed tree`);
    const tid = v.decoded.templateId;
    templates.push(tid.slice(tid.indexOf(':') + 1));
    if (!tid.startsWith(`${SPLICE_AMULET.id}:`)) throw new Error(`${v.name}: unexpected package ${tid}`);
    for (const [qn, d] of deriveDataTypes(v.typedCreateArgForV12)) all.set(qn, d);
  }
  const pkgs = new Map<
    string,
    { id: string; name: string; version: string; templates: string[]; dataTypes: Record<string, DefJson> }
  >();
  for (const qn of [...all.keys()].sort()) {
    const p = packageOf(qn);
    const e = pkgs.get(p.id) ?? { ...p, templates: [], dataTypes: {} };
    e.dataTypes[qn] = all.get(qn) as DefJson;
    pkgs.set(p.id, e);
  }
  const main = pkgs.get(SPLICE_AMULET.id);
  if (main !== undefined) main.templates = [...templates].sort();
  const ordered = [...pkgs.values()].sort((a, b) =>
    a.id === SPLICE_AMULET.id ? -1 : b.id === SPLICE_AMULET.id ? 1 : a.name < b.name ? -1 : 1,
  );
  const doc = {
    format: TYPE_FILE_FORMAT,
    source_repo:
      'hyperledger-labs/splice-wallet-kernel (typed trees) + hyperledger-labs/splice (Daml sources)',
    source_path:
      'test/vectors/contract-id-test-vectors.json blobVectors[].typedCreateArgForV12 (from splice-wallet-kernel core/amulet-service/src/amulet-service{,-consts}.test.ts); supplement from splice daml/splice-amulet/daml/Splice/*.daml',
    source_commit:
      'splice-wallet-kernel@f889a43816f858684fdc61e52a68c7002a4a2bb1; splice-amulet 0.1.17 = package 6c5802f86709a0ad4784af81f0bab40f3070b2f58128d8843da1e1784c147802',
    notes,
    packages: ordered.map((p) => ({
      id: p.id,
      name: p.name,
      version: p.version,
      templates: p.templates,
      dataTypes: p.dataTypes,
    })),
  };
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  parseTypeFile(text); // validates
  return text;
}

export const FIXTURES: readonly { file: string; vectors: readonly string[] }[] = [
  { file: 'splice-featured-app-right.types.json', vectors: ['Splice FeaturedAppRight (V12)'] },
  { file: 'splice-open-mining-round.types.json', vectors: ['Splice OpenMiningRound (V12)'] },
  { file: 'splice-amulet-rules.types.json', vectors: ['Splice AmuletRules (V12)'] },
  {
    file: 'splice-amulet-0.1.17.types.json',
    vectors: ['Splice FeaturedAppRight (V12)', 'Splice OpenMiningRound (V12)', 'Splice AmuletRules (V12)'],
  },
];

/** The text of one fixture, derived afresh. */
export function deriveFixture(file: string): string {
  const f = FIXTURES.find((x) => x.file === file);
  if (f === undefined) throw new Error(`unknown fixture ${file}`);
  const all = loadContractIdVectors().blobVectors;
  const vs = f.vectors.map((n) => {
    const v = all.find((x) => x.name === n);
    if (v === undefined) throw new Error(`no vector ${n}`);
    return v;
  });
  return deriveTypeFileJson(
    vs,
    `Generated by test/types/derive-type-file.ts from the typed trees of: ${f.vectors.join(', ')}. ` +
      'Field labels, record names and value types come from the trees; type parameters, empty-list element types, None contents, ' +
      'omitted trailing optional fields and phantom arguments come from the script SUPPLEMENT (Splice Daml sources), ' +
      'cross-checked against splice-amulet-0.1.17.dar when ../shared/dars is present.',
  );
}

if (process.argv[1]?.endsWith('derive-type-file.ts')) {
  for (const f of FIXTURES) {
    writeFileSync(join(repoRoot, 'fixtures', 'types', f.file), deriveFixture(f.file));
    console.log(`wrote fixtures/types/${f.file}`);
  }
}
