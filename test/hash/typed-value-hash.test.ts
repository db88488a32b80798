/**
 * The fused V12 fast path (typed-value-hash.ts) writes exactly the bytes of typeCreateArgument +
 * encodeTypedNormalFormValue, on the real blobs and on synthetic values with generics, variants,
 * enums, maps and omitted optional fields; and it reports the same typing errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import type { Value } from '../../src/core/codec/value.js';
import { computeContractHashPreimage } from '../../src/core/hash/contract-hash.js';
import { HashBuilder } from '../../src/core/hash/hash-builder.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { encodeTypedContractHashPreimage } from '../../src/core/hash/typed-value-hash.js';
import { createTypeEnv, resolveTemplate, type TypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { typeCreateArgument } from '../../src/core/types/type-value.js';
import { DamlTypeError } from '../../src/errors/types.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

type Contract = Parameters<typeof typeCreateArgument>[0];

function fast(c: Contract, env: TypeEnv): string {
  const r = resolveTemplate(env, c.templateId, c.packageName);
  if (!r.ok) throw new Error(r.reason);
  const b = new HashBuilder(64);
  encodeTypedContractHashPreimage(b, c, env, r);
  return bytesToHex(b.bytes());
}

function slow(c: Contract, env: TypeEnv): string {
  const typed = typeCreateArgument(c, env).value;
  return bytesToHex(computeContractHashPreimage('v12', { ...c, typedCreateArg: typed }));
}

describe('fast V12 encoder = typing + TNF encoding', () => {
  const env = spliceTypeEnv();
  it.each(
    loadContractIdVectors()
      .blobVectors.filter((b) => b.typedCreateArgForV12 !== undefined)
      .map((b) => [b.name, b] as const),
  )('%s', (_n, b) => {
    const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
    expect(fast(c, env)).toBe(slow(c, env));
  });

  const PKG = 'cd'.repeat(32);
  const env2 = createTypeEnv(
    parseTypeFile({
      format: 'reserve-audit/type-file@1',
      packages: [
        {
          id: PKG,
          name: 'gen',
          version: '1.0.0',
          dataTypes: {
            'G:T': {
              record: [
                [
                  'a',
                  {
                    con: 'G:Pair',
                    args: [{ optional: 'Int64' }, { con: 'G:Either', args: ['Text', { numeric: 2 }] }],
                  },
                ],
                ['m', { genMap: [{ con: 'G:Color' }, { list: 'Date' }] }],
                ['tm', { textMap: { con: 'G:Pair', args: ['Bool', 'Timestamp'] } }],
                ['u', 'Unit'],
                ['o1', { optional: 'Party' }],
                ['o2', { optional: { optional: 'ContractId' } }],
              ],
            },
            'G:Pair': {
              params: ['x', 'y'],
              record: [
                ['fst', { var: 'x' }],
                ['snd', { var: 'y' }],
              ],
            },
            'G:Either': {
              params: ['l', 'r'],
              variant: [
                ['Left', { var: 'l' }],
                ['Right', { var: 'r' }],
              ],
            },
            'G:Color': { enum: ['Red', 'Green', 'Blue'] },
          },
        },
      ],
    }).packages,
  );
  const opt = (v: Value | null): Value => ({ kind: 'optional', value: v });
  const arb: fc.Arbitrary<Value> = fc
    .record({
      fst: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
      either: fc.oneof(
        fc
          .string()
          .map((s): Value => ({ kind: 'variant', constructor: 'Left', value: { kind: 'text', value: s } })),
        fc.integer().map(
          (n): Value => ({
            kind: 'variant',
            constructor: 'Right',
            value: { kind: 'numeric', value: `${n}.25` },
          }),
        ),
      ),
      colors: fc.uniqueArray(fc.constantFrom('Red', 'Green', 'Blue'), { maxLength: 3 }),
      days: fc.array(fc.integer({ min: -1000, max: 100000 }), { maxLength: 3 }),
      tm: fc.uniqueArray(fc.tuple(fc.string(), fc.boolean(), fc.bigInt({ min: 0n, max: 2n ** 60n })), {
        selector: (x) => x[0],
        maxLength: 3,
      }),
      o1: fc.option(fc.constant('alice::1220')),
      o2: fc.option(fc.option(fc.uint8Array({ minLength: 69, maxLength: 69 }))),
      drop: fc.nat({ max: 2 }),
    })
    .map((r): Value => {
      const fields: Value[] = [
        { kind: 'record', fields: [opt(r.fst === null ? null : { kind: 'int64', value: r.fst }), r.either] },
        {
          kind: 'genMap',
          entries: r.colors.map(
            (c) =>
              [
                { kind: 'enum', constructor: c },
                { kind: 'list', elements: r.days.map((d): Value => ({ kind: 'date', value: d })) },
              ] as const,
          ),
        },
        {
          kind: 'textMap',
          entries: [...r.tm]
            .sort((a, b) => (a[0] < b[0] ? -1 : 1))
            .map(
              ([k, x, t]) =>
                [
                  k,
                  {
                    kind: 'record',
                    fields: [
                      { kind: 'bool', value: x },
                      { kind: 'timestamp', value: t },
                    ],
                  },
                ] as const,
            ),
        },
        { kind: 'unit' },
        opt(r.o1 === null ? null : { kind: 'party', value: r.o1 }),
        opt(
          r.o2 === null
            ? null
            : opt(
                r.o2 === null || r.o2 === undefined
                  ? null
                  : { kind: 'contractId', value: r.o2 as Uint8Array },
              ),
        ),
      ];
      return { kind: 'record', fields: fields.slice(0, 6 - r.drop) };
    });
  it('agrees on random values of a generic template (property)', () => {
    fc.assert(
      fc.property(arb, (createArg) => {
        const c = {
          packageName: 'gen',
          templateId: { packageId: PKG, module: ['G'], entity: ['T'] },
          createArg,
        };
        expect(fast(c, env2)).toBe(slow(c, env2));
      }),
      { numRuns: 300 },
    );
  });
  it('reports the same error as typeCreateArgument', () => {
    const bad: Value = {
      kind: 'record',
      fields: [
        {
          kind: 'record',
          fields: [
            opt(null),
            { kind: 'variant', constructor: 'Right', value: { kind: 'numeric', value: '1.5' } },
          ],
        },
        { kind: 'genMap', entries: [] },
        { kind: 'textMap', entries: [] },
        { kind: 'unit' },
      ],
    };
    const c = {
      packageName: 'gen',
      templateId: { packageId: PKG, module: ['G'], entity: ['T'] },
      createArg: bad,
    };
    let err: unknown;
    try {
      fast(c, env2);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DamlTypeError);
    expect((err as DamlTypeError).code).toBe('NUMERIC_SCALE_MISMATCH');
    expect((err as DamlTypeError).shortMessage).toMatch(/\$\.a\.snd<Right>/);
  });
});
