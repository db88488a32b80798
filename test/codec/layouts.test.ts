/**
 * Layout detection and the rarer parts of the format (docs/protocol/blob-format.md §2.3–§2.4, §3.3, §6):
 * a legacy-layout blob shaped like the §8.3 Splice mock, contract keys (field 1001), V2 contract ids
 * (raw authentication data), Canton 3.2's text_map = 1001, unknown fields in 'report' mode.
 */
import { describe, expect, it } from 'vitest';
import { formatTemplateId } from '../../src/core/codec/contract-json.js';
import {
  decodeCreatedEventBlob,
  decodeValue,
  encodeCreatedEventBlob,
  formatHex,
} from '../../src/core/codec/index.js';
import {
  buildBlob,
  bytesOf,
  cat,
  fixed64,
  ld,
  realParts,
  str,
  tag,
  V,
  varint,
} from '../helpers/bad-inputs.js';

const SVC = 'SVC::1220a555a9b9e55dc4ae1f0e23b5a6f2b2b8b1f1bd3b33d2e4e3b5c4d0a1f2e3d4c5';
const cid = (v: number): number[] => [
  0x00,
  ...new Array(32).fill(0xc5),
  0xca,
  v,
  0x12,
  0x20,
  ...new Array(32).fill(0xab),
];
const legacyTemplate = cat(
  str(1, '218bd1d1'.repeat(8)),
  str(2, 'CC'),
  str(2, 'Round'),
  str(3, 'OpenMiningRound'),
);
// LF-1 numbering: record = 1 { fields = 2 { value = 2 } }, party = 10, int64 = 5, numeric = 6, timestamp = 9
const L = {
  record: (fields: number[][]): number[] =>
    ld(
      1,
      fields.flatMap((f) => ld(2, ld(2, f))),
    ),
  party: (s: string): number[] => str(10, s),
  int64: (n: number): number[] => cat(tag(5, 0), varint(n * 2)),
  numeric: (s: string): number[] => str(6, s),
  timestamp: (us: bigint): number[] => fixed64(9, us),
  cidText: (hex: string): number[] => ld(15, str(1, hex)),
};
const legacyArg = L.record([
  L.party(SVC),
  L.record([L.int64(3)]),
  L.numeric('1.0000000000'),
  L.timestamp(1704828043133736n),
]);
const saltData = cat(ld(1, ld(1, cat([0x08, 0x01], ld(2, new Array(32).fill(0xa0))))));

function legacyBlob(version: string, packageName: string | null, arg = legacyArg): Uint8Array {
  const fci = cat(
    ld(1, cid(0x02)),
    ld(2, legacyTemplate),
    ld(3, arg),
    str(5, SVC),
    fixed64(7, 1704827893133736n),
    ld(8, saltData),
    packageName === null ? [] : str(9, packageName),
  );
  return bytesOf(cat(str(1, version), ld(2, fci)));
}

describe('legacy layout (Daml 2.x / early Canton 3.0)', () => {
  it('is detected from payload field 2 and decoded with the LF-1 numbering', () => {
    const c = decodeCreatedEventBlob(legacyBlob('dev', null));
    expect(c.layout).toBe('legacy');
    expect(c.packageName).toBe('');
    expect(formatTemplateId(c.templateId)).toBe(`${'218bd1d1'.repeat(8)}:CC.Round:OpenMiningRound`);
    expect(c.signatories).toEqual([SVC]);
    expect(c.createdAt).toBe(1704827893133736n);
    expect(c.authenticationData.version).toBe(0); // 2.x wrapper: version absent
    expect(c.authenticationData.salt?.bytes).toEqual(new Uint8Array(32).fill(0xa0));
    expect(c.createArg).toEqual({
      kind: 'record',
      fields: [
        { kind: 'party', value: SVC },
        { kind: 'record', fields: [{ kind: 'int64', value: 3n }] },
        { kind: 'numeric', value: '1.0000000000' },
        { kind: 'timestamp', value: 1704828043133736n },
      ],
    });
  });

  it('re-encodes a legacy blob byte-for-byte (package_name in field 9)', () => {
    const blob = legacyBlob('dev', 'splice-amulet');
    const c = decodeCreatedEventBlob(blob);
    expect(c.packageName).toBe('splice-amulet');
    expect(encodeCreatedEventBlob(c)).toEqual(blob);
  });

  it('reads Daml 2.x ContractId{string} values and writes them back as text for version 14..17', () => {
    const hex = formatHex(Uint8Array.from(cid(0x02)));
    const blob = legacyBlob('17', null, L.record([L.cidText(hex)]));
    const c = decodeCreatedEventBlob(blob);
    expect(c.createArg).toEqual({
      kind: 'record',
      fields: [{ kind: 'contractId', value: Uint8Array.from(cid(0x02)) }],
    });
    expect(encodeCreatedEventBlob(c)).toEqual(blob);
  });

  it('rejects "2.1" on a legacy layout and LF-1 field labels', () => {
    expect(() => decodeCreatedEventBlob(legacyBlob('2.1', null))).toThrow(/BLOB_UNSUPPORTED_VERSION/);
    const labelled = ld(1, ld(2, cat(str(1, 'owner'), ld(2, L.party(SVC)))));
    expect(() => decodeCreatedEventBlob(legacyBlob('dev', null, labelled))).toThrow(/BLOB_INVALID_FIELD/);
  });
});

describe('current layout extras', () => {
  it('decodes a keyed contract (field 1001): signatories = non-maintainers ∪ maintainers', () => {
    const p = realParts();
    const alice = p.signatories[0]!;
    const bob = 'Bob::1220ff';
    const key = ld(1001, cat(ld(1, V.party(bob)), str(2, bob), ld(3, [1, 2, 3])));
    const blob = buildBlob({ ...p, version: '2', extra: key });
    const c = decodeCreatedEventBlob(blob);
    expect(c.key).toEqual({
      key: { kind: 'party', value: bob },
      maintainers: [bob],
      hash: Uint8Array.from([1, 2, 3]),
    });
    expect(c.signatories).toEqual([alice, bob].sort());
    expect(c.nonMaintainerSignatories).toEqual([alice]);
    expect(encodeCreatedEventBlob(c)).toEqual(blob);
  });

  it('rejects a maintainer that is also a non-maintainer signatory', () => {
    const p = realParts();
    const key = ld(1001, cat(ld(1, V.unit()), str(2, p.signatories[0]!)));
    expect(() => decodeCreatedEventBlob(buildBlob({ ...p, extra: key }))).toThrow(
      /BLOB_INCONSISTENT_PARTIES/,
    );
  });

  it('keeps V2 contract-id authentication data raw, with no salt', () => {
    const p = realParts();
    const v2 = [0x01, ...new Array(12).fill(5), 0x00, ...new Array(32).fill(6)];
    const c = decodeCreatedEventBlob(buildBlob({ ...p, contractId: v2, auth: ld(1, new Array(32).fill(7)) }));
    expect(c.authenticationData.salt).toBeNull();
    expect(c.authenticationData.raw.length).toBe(34);
  });

  it('accepts Canton 3.2 text_map = 1001 and sorts TextMap keys', () => {
    const entries = cat(ld(1, cat(str(1, 'b'), ld(2, V.unit()))), ld(1, cat(ld(2, V.bool(false)))));
    const v = decodeValue(bytesOf(ld(1001, entries)));
    expect(v).toEqual({
      kind: 'textMap',
      entries: [
        ['', { kind: 'bool', value: false }],
        ['b', { kind: 'unit' }],
      ],
    });
  });

  it("reports unknown fields at every level with unknownFields: 'report'", () => {
    const p = realParts();
    const arg = V.record([cat(V.text('x'), [0xf8, 0x01, 0x07])]); // Value field 31, varint
    const blob = buildBlob({ ...p, createArg: arg, extra: [0x50, 0x01] });
    const c = decodeCreatedEventBlob(blob, { unknownFields: 'report' });
    expect(c.unknownFields?.map((u) => [u.message, u.fieldNumber, u.wireType])).toEqual([
      ['Value', 31, 0],
      ['FatContractInstance', 10, 0],
    ]);
    expect(c.createArg).toEqual({ kind: 'record', fields: [{ kind: 'text', value: 'x' }] });
    expect(decodeCreatedEventBlob(buildBlob(p)).unknownFields).toBeUndefined();
  });
});
