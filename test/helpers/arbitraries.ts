/**
 * fast-check arbitraries for the codec's vocabulary (src/core/codec/value.ts, contract.ts):
 * valid untyped Values and DecodedContracts in the canonical form a decoder returns (TextMap sorted
 * by code point with unique keys, party lists sorted and unique, bytes as Uint8Array), so that
 * `decode(encode(x))` must equal `x`. Exported for other areas' property tests.
 */
import fc from 'fast-check';
import { encodeAuthenticationData } from '../../src/core/codec/authentication-data.js';
import type { DecodedContract, TemplateId } from '../../src/core/codec/contract.js';
import { compareCodePoints } from '../../src/core/codec/utf8.js';
import type { Value } from '../../src/core/codec/value.js';

const PARTY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_ ';

/** A Daml party id: 1..255 chars of [A-Za-z0-9:_\- ] (a `name::1220<hex>` shape most of the time). */
const arbPartyId: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,20}$/),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
    )
    .map(([n, h]) => `${n}::1220${Buffer.from(h).toString('hex')}`),
  fc.string({ unit: fc.constantFrom(...PARTY_CHARS), minLength: 1, maxLength: 40 }),
);

/** A Daml Numeric text with scale 0..37 and ≤ 38 digits. */
const arbNumeric: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 37 }), fc.bigInt({ min: 0n, max: 10n ** 20n }))
  .chain(([neg, scale, seed]) =>
    fc.bigInt({ min: 0n, max: 10n ** BigInt(Math.min(38, scale + 10)) - 1n }).map((digits) => {
      const d = (digits + seed) % 10n ** BigInt(Math.min(38, scale + 10));
      const s = d.toString().padStart(scale + 1, '0');
      const int = s.slice(0, s.length - scale);
      const frac = s.slice(s.length - scale);
      const sign = neg && d !== 0n ? '-' : '';
      return `${sign}${int}.${frac}`;
    }),
  );

/** Daml-LF name segment. */
const arbName: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/);

/** Contract-id bytes: V1 (0x00 ‖ 32 ‖ suffix ≤ 94, usually the Canton 0xca1x 1220 … shape) or V2. */
const arbContractIdBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.constantFrom(0x10, 0x11, 0x12),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
      )
      .map(([d, v, u]) => Uint8Array.from([0x00, ...d, 0xca, v, 0x12, 0x20, ...u])),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 32, maxLength: 126 }).map((b) => Uint8Array.from([0x00, ...b])),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ minLength: 12, maxLength: 45 }).map((b) => Uint8Array.from([0x01, ...b])),
  },
);

const leaf: fc.Arbitrary<Value> = fc.oneof(
  fc.constant<Value>({ kind: 'unit' }),
  fc.boolean().map((value): Value => ({ kind: 'bool', value })),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }).map((value): Value => ({ kind: 'int64', value })),
  arbNumeric.map((value): Value => ({ kind: 'numeric', value })),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((value): Value => ({ kind: 'text', value })),
  arbPartyId.map((value): Value => ({ kind: 'party', value })),
  arbContractIdBytes.map((value): Value => ({ kind: 'contractId', value })),
  fc.integer({ min: -719162, max: 2932896 }).map((value): Value => ({ kind: 'date', value })),
  fc
    .bigInt({ min: -62135596800000000n, max: 253402300799999999n })
    .map((value): Value => ({ kind: 'timestamp', value })),
  arbName.map((ctor): Value => ({ kind: 'enum', constructor: ctor })),
);

/** Valid untyped Values of bounded depth, canonical as decoded. */
export const arbValue: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.option(tie('value'), { nil: null }).map((value): Value => ({ kind: 'optional', value })),
    fc.array(tie('value'), { maxLength: 4 }).map((elements): Value => ({ kind: 'list', elements })),
    fc.array(tie('value'), { maxLength: 5 }).map((fields): Value => ({ kind: 'record', fields })),
    fc
      .tuple(arbName, tie('value'))
      .map(([ctor, value]): Value => ({ kind: 'variant', constructor: ctor, value })),
    fc
      .uniqueArray(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 8 }), tie('value')), {
        maxLength: 4,
        selector: ([k]) => k,
      })
      .map(
        (entries): Value => ({
          kind: 'textMap',
          entries: [...entries].sort((a, b) => compareCodePoints(a[0], b[0])),
        }),
      ),
    fc
      .array(fc.tuple(tie('value'), tie('value')), { maxLength: 3 })
      .map((entries): Value => ({ kind: 'genMap', entries })),
  ),
})).value;

const sortedParties = (min: number, max: number): fc.Arbitrary<string[]> =>
  fc.uniqueArray(arbPartyId, { minLength: min, maxLength: max }).map((a) => [...a].sort());

const arbTemplateId: fc.Arbitrary<TemplateId> = fc.record({
  packageId: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  module: fc.array(arbName, { minLength: 1, maxLength: 4 }),
  entity: fc.array(arbName, { minLength: 1, maxLength: 2 }),
});

/** A valid current-layout DecodedContract, as `decodeCreatedEventBlob` would return it. */
export const arbDecodedContract: fc.Arbitrary<DecodedContract> = fc
  .record({
    serializationVersion: fc.constantFrom('2.1', '2', 'dev'),
    contractId: arbContractIdBytes,
    packageName: fc.stringMatching(/^[A-Za-z0-9._-]{1,30}$/),
    templateId: arbTemplateId,
    createArg: arbValue,
    parties: sortedParties(1, 6),
    split: fc.nat(),
    keyed: fc.boolean(),
    key: arbValue,
    keyHash: fc.option(fc.uint8Array({ minLength: 1, maxLength: 32 }), { nil: null }),
    createdAt: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
    salt: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    packageVersion: fc.array(fc.integer({ min: 0, max: 0x7fffffff }), { maxLength: 3 }),
  })
  .map((r): DecodedContract => {
    // split the sorted parties into: maintainers | other signatories | observers (disjoint)
    const n = r.parties.length;
    const sigEnd = 1 + (r.split % n);
    const maintainersEnd = r.keyed ? Math.min(sigEnd, 1 + ((r.split >> 3) % sigEnd)) : 0;
    const signatories = r.parties.slice(0, sigEnd);
    const maintainers = signatories.filter((_, i) => i < maintainersEnd);
    const nonMaintainer = signatories.filter((_, i) => i >= maintainersEnd);
    const observers = r.parties.slice(sigEnd);
    const raw = encodeAuthenticationData(r.salt);
    const isV1 = r.contractId[0] === 0x00;
    return {
      serializationVersion: r.serializationVersion,
      layout: 'current',
      contractId: r.contractId,
      packageName: r.packageName,
      templateId: r.templateId,
      createArg: r.createArg,
      nonMaintainerSignatories: nonMaintainer,
      nonSignatoryStakeholders: observers,
      signatories,
      stakeholders: [...r.parties],
      createdAt: r.createdAt,
      authenticationData: {
        raw,
        version: isV1 ? 30 : 0,
        salt: isV1 ? { algorithm: 1, bytes: r.salt } : null,
      },
      key: r.keyed ? { key: r.key, maintainers, hash: r.keyHash } : null,
      packageVersion: r.packageVersion,
    };
  });
