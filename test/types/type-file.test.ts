/** parseTypeFile rejects malformed type files with TYPE_FILE_INVALID and the JSON path (docs/type-file.md). */
import { describe, expect, it } from 'vitest';
import { formatTypeFile, parseTypeFile, TYPE_FILE_FORMAT } from '../../src/core/types/type-file.js';
import { DamlTypeError } from '../../src/errors/types.js';

const ID = 'a'.repeat(64);
const good = () => ({
  format: TYPE_FILE_FORMAT,
  notes: 'test',
  packages: [
    {
      id: ID,
      name: 'p',
      version: '1.0.0',
      templates: ['M:T'],
      dataTypes: {
        'M:T': {
          record: [
            ['x', { con: 'M:Box', args: ['Party'] }],
            ['m', { genMap: ['Text', { textMap: 'Date' }] }],
          ],
        },
        'M:Box': {
          params: ['a'],
          record: [
            ['v', { optional: { var: 'a' } }],
            ['c', 'ContractId'],
            ['t', 'Timestamp'],
          ],
        },
        'M:E': { enum: ['A', 'B'] },
        'M:V': {
          variant: [
            ['L', 'Unit'],
            ['R', { list: { numeric: 0 } }],
          ],
        },
        'N.Sub:X.Y': { record: [['z', { con: 'Std:S', package: 'b'.repeat(64) }]] },
      },
    },
  ],
});

type Mut = ReturnType<typeof good> & Record<string, unknown>;

function code(doc: unknown): string {
  try {
    parseTypeFile(doc);
  } catch (e) {
    expect(e).toBeInstanceOf(DamlTypeError);
    return (e as DamlTypeError).code;
  }
  return 'OK';
}

describe('parseTypeFile', () => {
  it('accepts a valid file, as object or text, and formats it back', () => {
    expect(code(good())).toBe('OK');
    const tf = parseTypeFile(JSON.stringify(good()));
    expect(tf.packages[0]?.dataTypes.get('N.Sub:X.Y')).toBeDefined();
    expect(parseTypeFile(formatTypeFile(tf.packages, tf.provenance)).packages[0]?.dataTypes.size).toBe(5);
  });
  const withType = (d: Mut, def: unknown): Mut => {
    (d.packages[0]?.dataTypes as Record<string, unknown>)['M:Z'] = def;
    return d;
  };
  const withPkg = (d: Mut, key: string, value: unknown): Mut => {
    (d.packages[0] as Record<string, unknown>)[key] = value;
    return d;
  };
  const withName = (d: Mut, qn: string): Mut => {
    (d.packages[0]?.dataTypes as Record<string, unknown>)[qn] = { enum: ['A'] };
    return d;
  };
  const cases: [string, (d: Mut) => unknown][] = [
    ['not JSON', () => '{'],
    ['an array', () => []],
    ['a wrong format tag', (d) => ({ ...d, format: 'x' })],
    ['an unknown top-level key', (d) => ({ ...d, extra: 1 })],
    ['no packages', (d) => ({ ...d, packages: [] })],
    ['a short package id', (d) => withPkg(d, 'id', 'abc')],
    ['an upper-case package id', (d) => withPkg(d, 'id', 'A'.repeat(64))],
    ['a duplicate package id', (d) => ({ ...d, packages: [d.packages[0], d.packages[0]] })],
    ['an empty name', (d) => withPkg(d, 'name', '')],
    ['an unknown package key', (d) => withPkg(d, 'extra', 1)],
    ['a bad qualified name', (d) => withName(d, 'NoColon')],
    ['a qualified name with an empty segment', (d) => withName(d, 'M..N:X')],
    ['two kinds', (d) => withType(d, { enum: ['A'], record: [] })],
    ['no kind', (d) => withType(d, {})],
    ['an unknown primitive', (d) => withType(d, { record: [['a', 'Decimal']] })],
    ['a bad numeric scale', (d) => withType(d, { record: [['a', { numeric: 38 }]] })],
    ['an unbound type variable', (d) => withType(d, { record: [['a', { var: 'q' }]] })],
    [
      'duplicate field names',
      (d) =>
        withType(d, {
          record: [
            ['a', 'Unit'],
            ['a', 'Unit'],
          ],
        }),
    ],
    ['duplicate enum constructors', (d) => withType(d, { enum: ['A', 'A'] })],
    ['duplicate type parameters', (d) => withType(d, { params: ['a', 'a'], enum: ['A'] })],
    [
      'a reference to a missing type of the same file',
      (d) => withType(d, { record: [['a', { con: 'M:Missing' }]] }),
    ],
    ['a reference with the wrong arity', (d) => withType(d, { record: [['a', { con: 'M:Box' }]] })],
    [
      'a reference with a bad package id',
      (d) => withType(d, { record: [['a', { con: 'M:Box', package: 'x' }]] }),
    ],
    ['a template that is not a record', (d) => withPkg(d, 'templates', ['M:E'])],
    ['a field entry that is not a pair', (d) => withType(d, { record: [['a']] })],
    ['a non-string provenance', (d) => ({ ...d, notes: 1 })],
  ];
  it.each(cases)('rejects %s', (_n, mutate) => {
    expect(code(mutate(structuredClone(good()) as Mut))).toBe('TYPE_FILE_INVALID');
  });
  it('names the JSON path in the message', () => {
    const d = structuredClone(good()) as Mut;
    (d.packages[0]?.dataTypes as Record<string, unknown>)['M:Z'] = { record: [['a', 'Decimal']] };
    expect(() => parseTypeFile(d)).toThrow(/\$\.packages\[0\]\.dataTypes\["M:Z"\]\.record\[0\]\[1\]/);
  });
});
