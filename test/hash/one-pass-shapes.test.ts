/**
 * The one-pass verdict (src/core/hash/one-pass-verdict.ts) on blobs re-assembled from a real blob's
 * fields in shapes it does not answer or must reject: envelope fields swapped, other version
 * strings, unknown and duplicate fields, payload fields reordered or dropped, other authentication
 * data, a package version, a contract key field. Whatever the shape, verifyContractIdFast (with
 * the edges' one-pass seams) must give exactly verifyContractId's answer — most of these verify on
 * the full path, so a wrong give-up would not show, but a wrong pass or a wrong failure would.
 */
import { describe, expect, it } from 'vitest';
import { WireReader } from '../../src/core/codec/wire-reader.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { verifyContractIdFast } from '../../src/core/hash/verify-contract-id-fast.js';
import { decodeBase64Node, decodeBase64NodeScratch } from '../../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

const types = spliceTypeEnv();

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** One field: its tag and its raw value bytes (length prefix included for LEN fields). */
interface Field {
  readonly tag: number;
  readonly body: number[];
}

function len(tag: number, content: ArrayLike<number>): Field {
  return { tag, body: [...varint(content.length), ...Array.from(content)] };
}

function fieldsOf(buf: Uint8Array, start: number, end: number): Field[] {
  const r = new WireReader(buf, [], buf.length);
  r.pos = start;
  const out: Field[] = [];
  while (r.pos < end) {
    const tag = r.readTag(end);
    const at = r.pos;
    if ((tag & 7) === 2) r.pos = r.readLength(end, 'f');
    else if ((tag & 7) === 1) r.pos += 8;
    else r.readVarint64(end, 'f');
    out.push({ tag, body: Array.from(buf.subarray(at, r.pos)) });
  }
  return out;
}

function encode(fields: readonly Field[]): Uint8Array {
  return Uint8Array.from(fields.flatMap((f) => [...varint(f.tag), ...f.body]));
}

/** the content of a LEN field (without its length prefix) */
function content(f: Field): number[] {
  const r = new WireReader(Uint8Array.from(f.body), null, f.body.length);
  const stop = r.readLength(f.body.length, 'f');
  return f.body.slice(r.pos, stop);
}

function agree(contractId: string, blob: Uint8Array, label: string): void {
  const full = verifyContractId({ contractId, blob, types });
  for (const b of [blob, Buffer.from(blob).toString('base64')]) {
    const fast = verifyContractIdFast({
      contractId,
      blob: b,
      types,
      base64: decodeBase64Node,
      base64Scratch: decodeBase64NodeScratch,
      sha256: sha256Node,
      sha256Binary: sha256NodeBinary,
    });
    expect(
      [fast.status, fast.contractHash, fast.expectedSuffix, fast.reasons.map((x) => x.code)],
      label,
    ).toEqual([full.status, full.contractHash, full.expectedSuffix, full.reasons.map((x) => x.code)]);
    expect(fast.typing, label).toEqual(full.typing);
  }
}

describe('one-pass verdict on re-assembled real blobs', () => {
  it('gives the full path answer for every shape', () => {
    let verified = 0;
    for (const v of loadContractIdVectors().blobVectors) {
      const blob = Uint8Array.from(Buffer.from(v.createdEventBlobBase64, 'base64'));
      const env = fieldsOf(blob, 0, blob.length);
      const [version, payload] = env as [Field, Field];
      const p = content(payload);
      const fields = fieldsOf(Uint8Array.from(p), 0, p.length);
      const wrap = (fs: Field[], ver: Field = version) => encode([ver, len(0x12, encode(fs))]);
      const byTag = (tag: number) => fields.filter((f) => f.tag === tag);
      const without = (tag: number) => fields.filter((f) => f.tag !== tag);
      const shapes: [string, Uint8Array][] = [
        ['as is', wrap(fields)],
        ['payload first', encode([payload, version])],
        ['version dev', wrap(fields, len(0x0a, [0x64, 0x65, 0x76]))],
        ['version 2', wrap(fields, len(0x0a, [0x32]))],
        ['version 14', wrap(fields, len(0x0a, [0x31, 0x34]))],
        ['version 2.2', wrap(fields, len(0x0a, [0x32, 0x2e, 0x32]))],
        ['unknown envelope field', encode([version, payload, len(0x1a, [1])])],
        ['trailing byte', Uint8Array.from([...wrap(fields), 0])],
        ['created_at first', wrap([...byTag(0x39), ...without(0x39)])],
        ['created_at dropped', wrap(without(0x39))],
        ['created_at twice', wrap([...fields, ...byTag(0x39)])],
        ['authentication data dropped', wrap(without(0x42))],
        [
          'template before package name',
          wrap([
            ...byTag(0x0a),
            ...byTag(0x1a),
            ...byTag(0x12),
            ...without(0x0a).filter((f) => f.tag !== 0x1a && f.tag !== 0x12),
          ]),
        ],
        ['signatories last', wrap([...without(0x2a), ...byTag(0x2a)])],
        ['signatory twice', wrap([...fields.slice(0, 5), ...byTag(0x2a), ...fields.slice(5)])],
        ['package version 1', wrap([...fields, { tag: 0x48, body: varint(1) }])],
        ['unknown payload field 10', wrap([...fields, len(0x52, [1])])],
        ['contract key field', wrap([...fields, len((1001 << 3) | 2, [])])],
        ['contract id dropped', wrap(without(0x0a))],
      ];
      for (const auth of byTag(0x42)) {
        const a = content(auth);
        const other = (i: number, x: number) =>
          wrap(
            fields.map((f) =>
              f === auth
                ? len(
                    0x42,
                    a.map((y, j) => (j === i ? x : y)),
                  )
                : f,
            ),
          );
        shapes.push(
          ['hmac 0', other(5, 0)],
          ['auth version 29', other(41, 29)],
          ['salt byte changed', other(20, a[20]! ^ 1)],
        );
      }
      for (const [label, b] of shapes) {
        agree(v.contractId, b, `${v.name}: ${label}`);
        if (verifyContractId({ contractId: v.contractId, blob: b, types }).ok) verified++;
      }
    }
    // many shapes verify on the full path (so the fast path had to give the same pass)
    expect(verified).toBeGreaterThan(30);
  });
});
