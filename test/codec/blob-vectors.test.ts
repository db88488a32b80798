/**
 * The real blob vectors (test/vectors, docs/protocol/contract-id.md §10.3; docs/protocol/blob-format.md §8):
 * decode each, compare with its independent `decoded` fields, re-encode byte-for-byte, and cross-check our
 * fast wire walker against protobufjs's own reflection decoder driven by the same .proto descriptor.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { formatTemplateId } from '../../src/core/codec/contract-json.js';
import { protoDescriptor } from '../../src/core/codec/generated/proto-descriptor.js';
import {
  decodeCreatedEventBlob,
  decodeValue,
  encodeAuthenticationData,
  encodeCreatedEventBlob,
  encodeValue,
  formatBase64,
  formatDecodedContractJson,
  formatHex,
  parseBase64,
} from '../../src/core/codec/index.js';
import type { Value } from '../../src/core/codec/value.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const vectors = loadContractIdVectors().blobVectors;
const root = protobuf.Root.fromJSON(protoDescriptor);
const PbVersioned = root.lookupType('reserve_audit.blob.Versioned');
const PbFci = root.lookupType('reserve_audit.blob.current.FatContractInstance');
const PbValue = root.lookupType('reserve_audit.blob.current.Value');
const toObj = { longs: String, bytes: Array, defaults: false, oneofs: true } as const;

type Obj = Record<string, unknown>;
/** protobufjs's plain object for a Value → our Value (independent of our decoder). */
function fromPb(o: Obj): Value {
  const sum = o.sum as string;
  const x: unknown = o[sum];
  const m = x as Obj;
  switch (sum) {
    case 'unit':
      return { kind: 'unit' };
    case 'bool':
      return { kind: 'bool', value: x as boolean };
    case 'int64':
      return { kind: 'int64', value: BigInt(x as string) };
    case 'date':
      return { kind: 'date', value: x as number };
    case 'timestamp':
      return { kind: 'timestamp', value: BigInt(x as string) };
    case 'numeric':
    case 'party':
    case 'text':
      return { kind: sum, value: x as string };
    case 'contract_id':
      return { kind: 'contractId', value: Uint8Array.from(x as number[]) };
    case 'optional':
      return { kind: 'optional', value: m.value === undefined ? null : fromPb(m.value as Obj) };
    case 'list':
      return { kind: 'list', elements: ((m.elements ?? []) as Obj[]).map(fromPb) };
    case 'record':
      return { kind: 'record', fields: ((m.fields ?? []) as Obj[]).map((f) => fromPb(f.value as Obj)) };
    case 'map':
      return {
        kind: 'genMap',
        entries: ((m.entries ?? []) as Obj[]).map(
          (e) => [fromPb(e.key as Obj), fromPb(e.value as Obj)] as const,
        ),
      };
    case 'enum':
      return { kind: 'enum', constructor: m.value as string };
    case 'variant':
      // the proto field is literally named `constructor`
      return {
        kind: 'variant',
        constructor: Object.hasOwn(m, 'constructor') ? (m.constructor as unknown as string) : '',
        value: fromPb(m.value as Obj),
      };
    default:
      throw new Error(`kind ${sum} not in the vectors`);
  }
}

describe('real blob vectors', () => {
  it('has the 10 vectors the brief names (6 V10, 1 V11, 3 V12)', () => {
    const count = (v: string): number => vectors.filter((b) => b.cantonContractIdVersion.endsWith(v)).length;
    expect([vectors.length, count('V10'), count('V11'), count('V12')]).toEqual([10, 6, 1, 3]);
  });

  for (const v of vectors) {
    describe(v.name, () => {
      const c = decodeCreatedEventBlob(v.createdEventBlobBase64);

      it('decodes to the vector’s independent fields', () => {
        expect(formatHex(c.contractId)).toBe(v.contractId);
        expect(c.serializationVersion).toBe(v.decoded.serializationVersion);
        expect(c.layout).toBe('current');
        expect(c.packageName).toBe(v.decoded.packageName);
        expect(formatTemplateId(c.templateId)).toBe(v.decoded.templateId);
        expect(c.signatories).toEqual(v.decoded.signatories);
        expect(c.nonSignatoryStakeholders).toEqual(v.decoded.nonSignatoryStakeholders);
        expect(c.stakeholders).toEqual(
          [...v.decoded.signatories, ...v.decoded.nonSignatoryStakeholders].sort(),
        );
        expect(c.createdAt).toBe(BigInt(v.decoded.createdAtMicros));
        expect(formatHex(c.authenticationData.raw)).toBe(v.decoded.authenticationDataHex);
        expect(c.authenticationData.version).toBe(30);
        expect(c.authenticationData.salt?.algorithm).toBe(1);
        expect(formatHex(c.authenticationData.salt!.bytes)).toBe(v.decoded.saltHex);
        expect(c.key).toBeNull();
        expect(v.expected.suffixHex.startsWith(formatHex(c.contractId.subarray(33, 35)))).toBe(true);
      });

      it('re-encodes byte-for-byte', () => {
        expect(formatBase64(encodeCreatedEventBlob(c))).toBe(v.createdEventBlobBase64);
      });

      it('rebuilds the authentication data from the salt alone', () => {
        expect(encodeAuthenticationData(c.authenticationData.salt!.bytes)).toEqual(c.authenticationData.raw);
      });

      it('agrees with protobufjs reflection decoding of the same .proto files', () => {
        const env = PbVersioned.toObject(PbVersioned.decode(parseBase64(v.createdEventBlobBase64)), toObj);
        expect(env.version).toBe(c.serializationVersion);
        const fci = PbFci.toObject(PbFci.decode(Uint8Array.from(env.payload as number[])), toObj);
        expect(Uint8Array.from(fci.contract_id as number[])).toEqual(c.contractId);
        expect(fci.package_name).toBe(c.packageName);
        expect(fci.non_maintainer_signatories).toEqual(c.nonMaintainerSignatories);
        expect(fci.non_signatory_stakeholders ?? []).toEqual(c.nonSignatoryStakeholders);
        expect(BigInt(fci.created_at as string)).toBe(c.createdAt);
        const arg = Uint8Array.from(fci.create_arg as number[]);
        const pbValue = fromPb(PbValue.toObject(PbValue.decode(arg), toObj));
        expect(c.createArg).toEqual(pbValue);
        expect(decodeValue(arg)).toEqual(pbValue);
        expect(encodeValue(c.createArg)).toEqual(arg);
      });

      it('renders JSON with no bigint or bytes left', () => {
        const json = JSON.stringify(formatDecodedContractJson(c));
        expect(JSON.parse(json).contractId).toBe(v.contractId);
      });
    });
  }

  it('keeps decoded bytes independent of later writes to the caller’s input', () => {
    const bytes = parseBase64(vectors[0]!.createdEventBlobBase64);
    const c = decodeCreatedEventBlob(bytes);
    const before = formatHex(c.contractId);
    bytes.fill(0);
    expect(formatHex(c.contractId)).toBe(before);
  });

  it('with copyInput: false returns views into the caller’s buffer', () => {
    const bytes = parseBase64(vectors[0]!.createdEventBlobBase64);
    const c = decodeCreatedEventBlob(bytes, { copyInput: false });
    expect(c.contractId.buffer).toBe(bytes.buffer);
  });
});

describe('formatDecodedContractJson', () => {
  it('renders out-of-range creation times as null and keeps the µs count', () => {
    const c = decodeCreatedEventBlob(vectors[0]!.createdEventBlobBase64);
    const json = formatDecodedContractJson({ ...c, createdAt: -(1n << 63n) }) as Record<string, unknown>;
    expect(json.createdAt).toBeNull();
    expect(json.createdAtMicros).toBe('-9223372036854775808');
    const epoch = formatDecodedContractJson({ ...c, createdAt: -1n }) as Record<string, unknown>;
    expect(epoch.createdAt).toBe('1969-12-31T23:59:59.999999Z');
  });
});
