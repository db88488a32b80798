/** Typing untyped values against Daml types (docs/protocol/contract-id.md §6.4, dar-format §6.2). */
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/core/codec/value.js';
import type { DamlType, PackageTypes } from '../../src/core/types/daml-type.js';
import {
  addKnownPackageVersion,
  addPackage,
  comparePackageVersions,
  createTypeEnv,
  resolveTemplate,
  resolveTemplateCached,
} from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { typeCreateArgument, typeValue } from '../../src/core/types/type-value.js';
import { DamlTypeError } from '../../src/errors/types.js';

const PKG = 'a'.repeat(64);
const PKG2 = 'b'.repeat(64);

function pkg(id: string, version: string, extraField = false): PackageTypes {
  const fields: [string, unknown][] = [
    ['owner', 'Party'],
    ['amount', { numeric: 10 }],
    ['pair', { con: 'M:Pair', args: ['Int64', 'Text'] }],
    ['color', { con: 'M:Color' }],
    ['either', { con: 'M:Either', args: ['Bool', { list: 'Int64' }] }],
    ['note', { optional: 'Text' }],
  ];
  if (extraField) fields.push(['memo', { optional: 'Text' }]);
  return parseTypeFile({
    format: 'reserve-audit/type-file@1',
    packages: [
      {
        id,
        name: 'amm',
        version,
        templates: ['M:Pool'],
        dataTypes: {
          'M:Pool': { record: fields },
          'M:Pair': {
            params: ['a', 'b'],
            record: [
              ['fst', { var: 'a' }],
              ['snd', { var: 'b' }],
            ],
          },
          'M:Color': { enum: ['Red', 'Green'] },
          'M:Either': {
            params: ['l', 'r'],
            variant: [
              ['Left', { var: 'l' }],
              ['Right', { var: 'r' }],
            ],
          },
        },
      },
    ],
  }).packages[0] as PackageTypes;
}

const v = {
  party: (s: string): Value => ({ kind: 'party', value: s }),
  num: (s: string): Value => ({ kind: 'numeric', value: s }),
  int: (n: bigint): Value => ({ kind: 'int64', value: n }),
  text: (s: string): Value => ({ kind: 'text', value: s }),
  rec: (...fields: Value[]): Value => ({ kind: 'record', fields }),
  none: { kind: 'optional', value: null } as Value,
};

const pool = (over: Partial<Record<number, Value>> = {}, n = 6): Value => {
  const fields: Value[] = [
    v.party('alice::1220'),
    v.num('100.0000000000'),
    v.rec(v.int(1n), v.text('x')),
    { kind: 'enum', constructor: 'Green' },
    { kind: 'variant', constructor: 'Right', value: { kind: 'list', elements: [v.int(3n)] } },
    v.none,
  ];
  for (const [i, x] of Object.entries(over)) fields[Number(i)] = x as Value;
  return { kind: 'record', fields: fields.slice(0, n) };
};

const contract = (createArg: Value, packageId = PKG) => ({
  packageName: 'amm',
  templateId: { packageId, module: ['M'], entity: ['Pool'] },
  createArg,
});

function err(f: () => unknown): DamlTypeError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(DamlTypeError);
    return e as DamlTypeError;
  }
  throw new Error('did not throw');
}

describe('typeCreateArgument', () => {
  const env = createTypeEnv([pkg(PKG, '1.0.0')]);
  it('labels fields, ranks constructors, substitutes type arguments, drops trailing Nones', () => {
    const r = typeCreateArgument(contract(pool()), env);
    expect(r.upgraded).toBe(false);
    expect(r.value).toEqual({
      kind: 'record',
      type: { module: ['M'], entity: ['Pool'] },
      fields: [
        ['owner', v.party('alice::1220')],
        ['amount', v.num('100.0000000000')],
        [
          'pair',
          {
            kind: 'record',
            type: { module: ['M'], entity: ['Pair'] },
            fields: [
              ['fst', v.int(1n)],
              ['snd', v.text('x')],
            ],
          },
        ],
        [
          'color',
          { kind: 'enum', type: { module: ['M'], entity: ['Color'] }, constructor: 'Green', rank: 1 },
        ],
        [
          'either',
          {
            kind: 'variant',
            type: { module: ['M'], entity: ['Either'] },
            constructor: 'Right',
            rank: 1,
            value: { kind: 'list', elements: [v.int(3n)] },
          },
        ],
      ],
    });
  });
  it('accepts a record missing trailing optional fields (upgrade padding)', () => {
    expect(typeCreateArgument(contract(pool({}, 5)), env).value).toEqual(
      typeCreateArgument(contract(pool()), env).value,
    );
  });
  it.each([
    [
      'a wrong primitive kind',
      pool({ 0: v.text('alice') }),
      'TYPE_MISMATCH',
      /"\$\.owner" expected party, got text/,
    ],
    [
      'a numeric of another scale',
      pool({ 1: v.num('100.00') }),
      'NUMERIC_SCALE_MISMATCH',
      /scale 10.*scale 2/,
    ],
    [
      'a wrong type argument',
      pool({ 2: v.rec(v.text('1'), v.text('x')) }),
      'TYPE_MISMATCH',
      /\$\.pair\.fst" expected int64, got text/,
    ],
    [
      'an unknown enum constructor',
      pool({ 3: { kind: 'enum', constructor: 'Blue' } }),
      'UNKNOWN_CONSTRUCTOR',
      /Red, Green.*"Blue"/,
    ],
    [
      'an unknown variant constructor',
      pool({ 4: { kind: 'variant', constructor: 'Middle', value: v.int(1n) } }),
      'UNKNOWN_CONSTRUCTOR',
      /Left, Right/,
    ],
    [
      'a variant payload of the wrong type',
      pool({ 4: { kind: 'variant', constructor: 'Left', value: v.int(1n) } }),
      'TYPE_MISMATCH',
      /<Left>" expected bool/,
    ],
    [
      'an extra field',
      { kind: 'record', fields: [...(pool() as Extract<Value, { kind: 'record' }>).fields, v.none] } as Value,
      'TYPE_MISMATCH',
      /at most 6 fields, got 7/,
    ],
    ['a missing non-optional field', pool({}, 4), 'TYPE_MISMATCH', /\$\.either" expected a value/],
    [
      'a record where a variant is expected',
      pool({ 4: v.rec() }),
      'TYPE_MISMATCH',
      /expected variant M:Either, got record/,
    ],
  ] as const)('rejects %s', (_n, value, code, msg) => {
    const e = err(() => typeCreateArgument(contract(value), env));
    expect(e.code).toBe(code);
    expect(e.shortMessage).toMatch(msg);
  });
  it('reports TYPE_NOT_FOUND for an unknown template or package name', () => {
    expect(
      err(() =>
        typeCreateArgument(
          { ...contract(pool()), templateId: { packageId: PKG, module: ['M'], entity: ['Nope'] } },
          env,
        ),
      ).code,
    ).toBe('TYPE_NOT_FOUND');
    expect(err(() => typeCreateArgument({ ...contract(pool(), PKG2), packageName: 'other' }, env)).code).toBe(
      'TYPE_NOT_FOUND',
    );
  });
  it('limits the nesting depth', () => {
    let deep: Value = v.int(1n);
    let t: DamlType = { kind: 'int64' };
    for (let i = 0; i < 50; i++) {
      deep = { kind: 'optional', value: deep };
      t = { kind: 'optional', type: t };
    }
    expect(typeValue(deep, t, env).kind).toBe('optional');
    expect(err(() => typeValue(deep, t, env, new Map(), { maxDepth: 10 })).code).toBe('TYPE_DEPTH_EXCEEDED');
  });
  it('reports an unbound type variable', () => {
    expect(err(() => typeValue(v.int(1n), { kind: 'var', name: 'x' }, env)).code).toBe(
      'TYPE_ARGUMENTS_INVALID',
    );
  });
});

describe('template resolution and upgrades', () => {
  it('uses the exact package when loaded', () => {
    const env = createTypeEnv([pkg(PKG, '1.0.0'), pkg(PKG2, '2.0.0', true)]);
    const r = typeCreateArgument(contract(pool()), env);
    expect(r.packageId).toBe(PKG);
    expect(r.upgraded).toBe(false);
  });
  it('falls back to the highest version of the same package name and says so', () => {
    const env = createTypeEnv([pkg(PKG2, '1.10.0', true)]);
    addPackage(env, pkg('c'.repeat(64), '1.9.0', true));
    const r = typeCreateArgument(contract(pool(), 'd'.repeat(64)), env);
    expect(r.packageId).toBe(PKG2);
    expect(r.upgraded).toBe(true);
    expect(r.note).toMatch(/typed with another version of the package: amm 1\.10\.0 .*version is unknown/);
    const res = resolveTemplate(env, { packageId: 'd'.repeat(64), module: ['M'], entity: ['Pool'] }, 'amm');
    expect(res.ok).toBe(true);
  });
  it('does not substitute an older version than a known requested version', () => {
    const env = createTypeEnv([pkg(PKG2, '1.0.0')]);
    addKnownPackageVersion(env, PKG, '2.0.0');
    const res = resolveTemplate(env, { packageId: PKG, module: ['M'], entity: ['Pool'] }, 'amm');
    expect(res.ok).toBe(false);
  });
  it('ignores a second package with the same id', () => {
    const env = createTypeEnv([pkg(PKG, '1.0.0')]);
    expect(addPackage(env, pkg(PKG, '9.0.0'))).toBe(false);
    expect(env.packages.get(PKG)?.version).toBe('1.0.0');
  });
  it('resolveTemplateCached answers as resolveTemplate, also after packages and known versions are added', () => {
    const ref = { packageId: 'd'.repeat(64), module: ['M'], entity: ['Pool'] };
    const env = createTypeEnv([pkg(PKG2, '1.10.0', true)]);
    const same = (): void => {
      const a = resolveTemplateCached(env, { ...ref, module: [...ref.module] }, 'amm');
      expect(a).toEqual(resolveTemplate(env, ref, 'amm'));
      expect(resolveTemplateCached(env, ref, 'amm')).toBe(a);
      expect(resolveTemplateCached(env, ref, 'other')).toEqual(resolveTemplate(env, ref, 'other'));
      const nope = { ...ref, entity: ['Nope'] };
      expect(resolveTemplateCached(env, nope, 'amm')).toEqual(resolveTemplate(env, nope, 'amm'));
    };
    same();
    addPackage(env, pkg('c'.repeat(64), '1.11.0', true));
    same();
    expect(resolveTemplateCached(env, ref, 'amm')).toMatchObject({
      ok: true,
      package: { version: '1.11.0' },
    });
    addKnownPackageVersion(env, ref.packageId, '2.0.0');
    same();
    expect(resolveTemplateCached(env, ref, 'amm').ok).toBe(false);
  });
  it('compares versions numerically', () => {
    expect(comparePackageVersions('0.1.17', '0.1.9')).toBeGreaterThan(0);
    expect(comparePackageVersions('1.0', '1.0.0')).toBe(0);
    expect(comparePackageVersions('0.1.14', '0.1.17')).toBeLessThan(0);
  });
});
