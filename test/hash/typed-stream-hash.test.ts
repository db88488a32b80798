/**
 * The V12 walk over wire bytes (typed-stream-hash.ts) writes exactly the bytes of the fused typer/
 * encoder over the decoded value (typed-value-hash.ts), on random values of a generic template with
 * variants, a 3- and a 20-constructor enum (the scan and the map lookup of constructor names), maps,
 * lists, dates, timestamps, numerics and omitted or None trailing fields; and it gives up (false),
 * never writes other bytes, where the value does not fit the type.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../src/core/codec/value.js';
import { encodeValue } from '../../src/core/codec/value-encoder.js';
import { HashBuilder } from '../../src/core/hash/hash-builder.js';
import { bytesToHex } from '../../src/core/hash/hex.js';
import { streamTypedValueInto } from '../../src/core/hash/typed-stream-hash.js';
import { encodeTypedContractHashPreimage } from '../../src/core/hash/typed-value-hash.js';
import { arbGenericArgument, env, opt, resolution, templateId } from '../helpers/generic-template.js';

function fused(createArg: Value): string | null {
  const b = new HashBuilder(64);
  try {
    encodeTypedContractHashPreimage(b, { packageName: 'gen', templateId, createArg }, env, resolution);
  } catch {
    return null;
  }
  return bytesToHex(b.bytes());
}

function streamed(createArg: Value): string | null {
  const bytes = encodeValue(createArg);
  const b = new HashBuilder(64);
  b.byte(0x03).byte(0x05).str('gen').qualifiedName(['G'], ['T']);
  return streamTypedValueInto(b, bytes, 0, bytes.length, env, resolution, 100) ? bytesToHex(b.bytes()) : null;
}

describe('V12 from the wire bytes = the fused typer/encoder', () => {
  it('on random values of a generic template (property)', () => {
    let answered = 0;
    fc.assert(
      fc.property(arbGenericArgument, (v) => {
        // the same bytes; or it gives up — always where the typer refuses (a scale-9 numeric does
        // not fit Numeric 10), and on wire forms it leaves to the decoder (an empty text-map key is
        // not written by the encoder)
        const s = streamed(v);
        const f = fused(v);
        if (f === null) expect(s).toBeNull();
        if (s !== null) {
          expect(s).toBe(f);
          answered++;
        }
      }),
      { numRuns: 500 },
    );
    expect(answered).toBeGreaterThan(150);
  });

  it('gives up where the value does not fit the type', () => {
    const ok: Value = {
      kind: 'record',
      fields: [
        {
          kind: 'record',
          fields: [opt(null), { kind: 'variant', constructor: 'Left', value: { kind: 'text', value: 'x' } }],
        },
        { kind: 'genMap', entries: [] },
        { kind: 'textMap', entries: [] },
        { kind: 'list', elements: [{ kind: 'enum', constructor: 'C19' }] },
        { kind: 'unit' },
      ],
    };
    expect(streamed(ok)).toBe(fused(ok));
    const variants: Value[] = [
      // wrong numeric scale
      {
        ...ok,
        fields: [
          {
            kind: 'record',
            fields: [
              opt(null),
              { kind: 'variant', constructor: 'Right', value: { kind: 'numeric', value: '1.5' } },
            ],
          },
          ...(ok as unknown as { fields: Value[] }).fields.slice(1),
        ],
      },
      // unknown constructors (scan and map)
      {
        ...ok,
        fields: [
          {
            kind: 'record',
            fields: [opt(null), { kind: 'variant', constructor: 'Middle', value: { kind: 'unit' } }],
          },
          ...(ok as unknown as { fields: Value[] }).fields.slice(1),
        ],
      },
      {
        ...ok,
        fields: [
          ...(ok as unknown as { fields: Value[] }).fields.slice(0, 3),
          { kind: 'list', elements: [{ kind: 'enum', constructor: 'C20' }] },
          { kind: 'unit' },
        ],
      },
      // a missing non-optional field, one field too many
      { kind: 'record', fields: (ok as unknown as { fields: Value[] }).fields.slice(0, 3) },
      {
        kind: 'record',
        fields: [...(ok as unknown as { fields: Value[] }).fields, opt(null), opt(null), { kind: 'unit' }],
      },
      // a text where a unit is expected
      {
        ...ok,
        fields: [...(ok as unknown as { fields: Value[] }).fields.slice(0, 4), { kind: 'text', value: 'u' }],
      },
    ];
    for (const v of variants) {
      expect(fused(v)).toBeNull();
      expect(streamed(v)).toBeNull();
    }
  });
});
