/**
 * A generic V12 template for property tests of the typed encoders (typed-value-hash.test.ts,
 * test/verdict/engine-cases.test.ts): variants, a 3- and a 20-constructor enum (the scan and the map lookup of
 * constructor names), generic records, maps, lists, dates, timestamps, numerics of scale 10 (and 9,
 * which does not fit) and omitted or None trailing fields — and random argument values of it.
 */
import fc from 'fast-check';
import type { Value } from '../../src/core/codec/value.js';
import { createTypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';

const PKG = 'cd'.repeat(32);
const BIG = Array.from({ length: 20 }, (_, i) => `C${i}`);
export const env = createTypeEnv(
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
                  args: [{ optional: 'Int64' }, { con: 'G:Either', args: ['Text', { numeric: 10 }] }],
                },
              ],
              ['m', { genMap: [{ con: 'G:Color' }, { list: 'Date' }] }],
              ['tm', { textMap: { con: 'G:Pair', args: ['Bool', 'Timestamp'] } }],
              ['big', { list: { con: 'G:Big' } }],
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
          'G:Big': { enum: BIG },
        },
      },
    ],
  }).packages,
);
export const templateId = { packageId: PKG, module: ['G'], entity: ['T'] };
const opt = (v: Value | null): Value => ({ kind: 'optional', value: v });
const arbNumeric = fc
  .tuple(fc.bigInt({ min: -(10n ** 27n), max: 10n ** 27n }), fc.constantFrom(10, 9))
  .map(([n, scale]) => {
    const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0');
    return `${n < 0n ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  });
export const arbGenericArgument: fc.Arbitrary<Value> = fc
  .record({
    fst: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
    either: fc.oneof(
      fc
        .string({ unit: 'grapheme' })
        .map((s): Value => ({ kind: 'variant', constructor: 'Left', value: { kind: 'text', value: s } })),
      arbNumeric.map(
        (n): Value => ({ kind: 'variant', constructor: 'Right', value: { kind: 'numeric', value: n } }),
      ),
    ),
    colors: fc.uniqueArray(fc.constantFrom('Red', 'Green', 'Blue'), { maxLength: 3 }),
    days: fc.array(fc.integer({ min: -700000, max: 2900000 }), { maxLength: 3 }),
    tm: fc.uniqueArray(
      fc.tuple(fc.string(), fc.boolean(), fc.bigInt({ min: -62135596800000000n, max: 253402300799999999n })),
      {
        selector: (x) => x[0],
        maxLength: 3,
      },
    ),
    big: fc.array(fc.constantFrom(...BIG), { maxLength: 4 }),
    o1: fc.option(fc.constant('alice::1220')),
    o2: fc.option(
      fc.uint8Array({ minLength: 69, maxLength: 69 }).map((b) => Uint8Array.from([0, ...b.subarray(1)])),
    ),
    o2inner: fc.boolean(),
    drop: fc.nat({ max: 3 }),
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
      { kind: 'list', elements: r.big.map((c): Value => ({ kind: 'enum', constructor: c })) },
      { kind: 'unit' },
      opt(r.o1 === null ? null : { kind: 'party', value: r.o1 }),
      opt(r.o2 === null ? null : opt(r.o2inner ? { kind: 'contractId', value: r.o2 } : null)),
    ];
    return { kind: 'record', fields: fields.slice(0, 7 - r.drop) };
  });
