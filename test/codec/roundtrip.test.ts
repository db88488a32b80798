/**
 * Property: decode(encode(x)) = x for arbitrary valid Values and DecodedContracts
 * (docs/protocol/blob-format.md §4 writer rules), plus a from-scratch contract (what the reference server
 * mints).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecodedContract } from '../../src/core/codec/contract.js';
import {
  decodeCreatedEventBlob,
  decodeValue,
  encodeAuthenticationData,
  encodeCreatedEventBlob,
  encodeValue,
  formatHex,
} from '../../src/core/codec/index.js';
import type { Value } from '../../src/core/codec/value.js';
import { CodecError } from '../../src/errors/codec.js';
import { arbDecodedContract, arbValue } from '../helpers/arbitraries.js';

describe('encode/decode round trip', () => {
  it('decodeValue(encodeValue(v)) = v', () => {
    fc.assert(
      fc.property(arbValue, (v) => {
        expect(decodeValue(encodeValue(v))).toEqual(v);
      }),
      { numRuns: 300 },
    );
  });

  it('legacy numbering: decodeValue(encodeValue(v, legacy), legacy) = v', () => {
    fc.assert(
      fc.property(arbValue, (v) => {
        const bytes = encodeValue(v, { layout: 'legacy' });
        expect(decodeValue(bytes, { layout: 'legacy' })).toEqual(v);
      }),
      { numRuns: 200 },
    );
  });

  it('decodeCreatedEventBlob(encodeCreatedEventBlob(c)) = c, and encoding is deterministic', () => {
    fc.assert(
      fc.property(arbDecodedContract, (c) => {
        const bytes = encodeCreatedEventBlob(c);
        const back = decodeCreatedEventBlob(bytes);
        expect(back).toEqual(c);
        expect(encodeCreatedEventBlob(back)).toEqual(bytes);
      }),
      { numRuns: 120 },
    );
  });

  it('encodes a contract built from scratch, sorting parties, and decodes it back', () => {
    const salt = Uint8Array.from({ length: 32 }, (_, i) => i);
    const cid = Uint8Array.from([
      0x00,
      ...new Array(32).fill(7),
      0xca,
      0x12,
      0x12,
      0x20,
      ...new Array(32).fill(9),
    ]);
    const minted: DecodedContract = {
      serializationVersion: '2.1',
      layout: 'current',
      contractId: cid,
      packageName: 'amm-exchange',
      templateId: { packageId: 'ab'.repeat(32), module: ['Amm', 'Pool'], entity: ['Pool'] },
      createArg: {
        kind: 'record',
        fields: [
          { kind: 'party', value: 'operator::1220aa' },
          { kind: 'numeric', value: '1000.0000000000' },
          { kind: 'optional', value: null },
        ],
      },
      nonMaintainerSignatories: ['zed::1220aa', 'operator::1220aa'],
      nonSignatoryStakeholders: [],
      signatories: [],
      stakeholders: [],
      createdAt: 1_700_000_000_000_000n,
      authenticationData: {
        raw: encodeAuthenticationData(salt),
        version: 30,
        salt: { algorithm: 1, bytes: salt },
      },
      key: null,
      packageVersion: [],
    };
    const bytes = encodeCreatedEventBlob(minted);
    expect(formatHex(bytes.subarray(0, 5))).toBe('0a03322e31');
    const back = decodeCreatedEventBlob(bytes);
    expect(back.signatories).toEqual(['operator::1220aa', 'zed::1220aa']);
    expect(back.authenticationData.salt?.bytes).toEqual(salt);
    expect(formatHex(back.authenticationData.raw)).toBe(`0a260a2408011220${formatHex(salt)}101e`);
    expect(back.createArg).toEqual(minted.createArg);
  });

  it('rejects invalid encoder input with ENCODE_INVALID_INPUT', () => {
    const bad = [
      () => encodeValue({ kind: 'numeric', value: '1e5' }),
      () => encodeValue({ kind: 'party', value: 'bad!' }),
      () => encodeValue({ kind: 'int64', value: 1n << 63n }),
      () => encodeValue({ kind: 'text', value: '\ud800' }),
      () =>
        encodeValue({
          kind: 'textMap',
          entries: [
            ['a', { kind: 'unit' }],
            ['a', { kind: 'unit' }],
          ],
        }),
      () => encodeAuthenticationData(new Uint8Array(31)),
    ];
    for (const f of bad) {
      expect(f).toThrow(CodecError);
      try {
        f();
      } catch (e) {
        expect((e as CodecError).code).toBe('ENCODE_INVALID_INPUT');
      }
    }
  });
});

describe('encoders on malformed objects', () => {
  it('throw ENCODE_INVALID_INPUT, never a raw TypeError', () => {
    const cases: (() => unknown)[] = [
      () => encodeValue(undefined as unknown as Value),
      () => encodeValue({ kind: 'record', fields: [undefined] } as unknown as Value),
      () => encodeValue({ kind: 'nope' } as unknown as Value),
      () => encodeCreatedEventBlob({} as DecodedContract),
      () =>
        encodeCreatedEventBlob({
          serializationVersion: '2.1',
          layout: 'current',
        } as unknown as DecodedContract),
    ];
    for (const f of cases) {
      let caught: unknown;
      try {
        f();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(CodecError);
      expect((caught as CodecError).code).toBe('ENCODE_INVALID_INPUT');
    }
  });
});
