/**
 * The one case suite every verdict engine must pass (src/core/verdict/engine.ts: an engine may only
 * answer "verified"; the reference walk decides everything else). For each engine, on every case:
 * when the engine answers, the reference (verifyContractId) verifies the same blob and ID, with the
 * same contract hash, the same V12 template resolution and the spans of the decoded fields — a
 * wrong "verified" fails here. And the engine must answer the cases it exists for (every real
 * vector, most generated contracts), or it would be a slow no-op.
 *
 * Cases: the real vectors (V10/V11, V12 typed with the Splice types) with their own and a foreign
 * ID, without types; every truncation of every real blob; 4,000 mutated real blobs (own and foreign
 * IDs); real blobs re-assembled in shapes the engines do not answer or must reject; 600 generated
 * V10/V11 contracts of every value kind and 400 generated V12 contracts of a generic template, whole
 * and damaged; a type that writes more than its blob.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { CURRENT_VALUE, K } from '../../src/core/codec/schema.js';
import type { Value } from '../../src/core/codec/value.js';
import { WireReader } from '../../src/core/codec/wire-reader.js';
import { computeContractId } from '../../src/core/hash/compute-contract-id.js';
import { binaryToHex } from '../../src/core/hash/hex.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { createTypeEnv, type TypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { isContractIdVerified } from '../../src/core/verdict/cascade.js';
import type { VerdictEngine } from '../../src/core/verdict/engine.js';
import { createWasmVerdictEngine } from '../../src/core/verdict/wasm/engine.js';
import { decodeBase64Node, decodeBase64NodeScratch } from '../../src/io/node-base64.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { spliceTypeEnv } from '../hash/fixture-env.js';
import { arbDecodedContract } from '../helpers/arbitraries.js';
import { arbMutatedVector, arbMutation, mutate, realBlobs } from '../helpers/blob-fuzz.js';
import { arbGenericArgument, env as genericEnv, templateId } from '../helpers/generic-template.js';
import { repoRoot } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

/** Every engine of the seam: a new engine is added here and must pass the whole suite. */
const ENGINES: readonly { readonly name: string; readonly create: () => VerdictEngine | null }[] = [
  { name: 'wasm', create: () => createWasmVerdictEngine(sha256NodeBinary) },
];

const all = loadContractIdVectors().blobVectors;
const isV12 = (id: string) => id.startsWith('ca12', 66);
const untyped = all.filter((v) => !isV12(v.contractId));
const typed = all.filter((v) => isV12(v.contractId));
const splice = spliceTypeEnv();
const latin1 = new TextDecoder('latin1');

/**
 * The engine on one input; when it answers "verified", the reference must verify it too, with the
 * same contract hash, template resolution and field spans. Returns whether the engine answered.
 */
function sound(
  engine: VerdictEngine,
  blob: Uint8Array,
  contractId: string,
  types: TypeEnv | undefined,
): boolean {
  const e = engine.verify(blob, contractId, types);
  if (e === null) return false;
  const r = verifyContractId({ contractId, blob, types, sha256: sha256Node });
  expect(r.ok, `${engine.name} said verified, the reference says ${r.status}`).toBe(true);
  expect(binaryToHex(e.contractHash)).toBe(r.contractHash);
  if (isV12(contractId)) expect(e.resolution?.package.packageId).toBe(r.typing?.packageId);
  else expect(e.resolution).toBeNull();
  const c = r.contract;
  if (c !== null) {
    const s = e.spans;
    expect(latin1.decode(blob.subarray(s.nameAt, s.nameStop))).toBe(c.packageName);
    expect(BigInt(s.createdAtMicros)).toBe(c.createdAt);
    expect(s.idAt).toBeLessThan(s.idStop);
    expect(s.argAt).toBeLessThan(s.argStop);
    expect(s.argStop).toBeLessThanOrEqual(blob.length);
  }
  return true;
}

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

describe.each(ENGINES)('the verdict engine "$name"', ({ create }) => {
  const engine = create();

  it('is available on Node', () => {
    expect(engine).not.toBeNull();
  });
  if (engine === null) return;

  it('answers every real vector, and the reference agrees; not for a foreign ID, nor V12 without types', () => {
    expect(untyped.length).toBeGreaterThanOrEqual(7);
    expect(typed.length).toBeGreaterThanOrEqual(3);
    for (const v of all) {
      const blob = decodeBase64Node(v.createdEventBlobBase64) as Uint8Array;
      const types = isV12(v.contractId) ? splice : undefined;
      expect(sound(engine, blob, v.contractId, types), v.name).toBe(true);
      const foreign = all.find((o) => o !== v && o.contractId.slice(66, 70) === v.contractId.slice(66, 70));
      if (foreign) expect(engine.verify(blob, foreign.contractId, splice)).toBeNull();
      if (isV12(v.contractId)) {
        expect(engine.verify(blob, v.contractId, undefined)).toBeNull();
        expect(engine.verify(blob, v.contractId, createTypeEnv([]))).toBeNull();
      }
    }
  });

  it('the cascade gives the reference verdict, from bytes and from base64', () => {
    for (const v of all)
      for (const blob of [v.createdEventBlobBase64, decodeBase64Node(v.createdEventBlobBase64) as Uint8Array])
        for (const types of [splice, undefined])
          for (const id of [v.contractId, all[(all.indexOf(v) + 1) % all.length]!.contractId])
            expect(
              isContractIdVerified({ contractId: id, blob, types, engine, base64: decodeBase64NodeScratch }),
            ).toBe(verifyContractId({ contractId: id, blob, types }).ok);
  });

  it('is sound on every truncation of every real blob', () => {
    for (const v of all) {
      const blob = realBlobs[all.indexOf(v)]!;
      for (let n = 0; n < blob.length; n++) sound(engine, blob.subarray(0, n), v.contractId, splice);
    }
  });

  it('is sound on 4,000 mutated real blobs, with their own and a foreign ID', () => {
    fc.assert(
      fc.property(arbMutatedVector, fc.nat(), ({ index, blob }, k) => {
        const v = all[index]!;
        sound(engine, blob, v.contractId, splice);
        sound(engine, blob, all[k % all.length]!.contractId, splice);
      }),
      { numRuns: 4000, seed: 20261124 },
    );
  });

  it('is sound on real blobs re-assembled in other shapes (order, versions, unknown fields, keys)', () => {
    const types = splice;
    let verified = 0;
    let answered = 0;
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
        if (sound(engine, b, v.contractId, types)) answered++;
        if (verifyContractId({ contractId: v.contractId, blob: b, types }).ok) verified++;
        expect(isContractIdVerified({ contractId: v.contractId, blob: b, types, engine }), label).toBe(
          verifyContractId({ contractId: v.contractId, blob: b, types }).ok,
        );
      }
    }
    // many shapes verify on the reference; the engine answers at least the unchanged ones
    expect(verified).toBeGreaterThan(30);
    expect(answered).toBeGreaterThanOrEqual(all.length);
  });

  it('answers most generated V10/V11 contracts of every value kind, soundly, whole and damaged', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        arbDecodedContract,
        fc.constantFrom('v10' as const, 'v11' as const),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.bigInt({ min: -(2n ** 52n), max: 2n ** 52n }),
        fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
        (c, version, discriminator, salt, createdAt, mutations) => {
          // V11 hashes a record argument only
          const createArg: Value =
            version === 'v11' && c.createArg.kind !== 'record'
              ? { kind: 'record', fields: [c.createArg] }
              : c.createArg;
          const computed = computeContractId({
            contract: { ...c, createArg, key: null, packageVersion: [], createdAt },
            version,
            discriminator,
            salt,
            sha256: sha256Node,
          });
          const blob = encodeCreatedEventBlob(computed.contract);
          if (sound(engine, blob, computed.contractIdHex, undefined)) answered++;
          sound(engine, mutate(blob, mutations), computed.contractIdHex, undefined);
        },
      ),
      { numRuns: 600, seed: 42 },
    );
    expect(answered).toBeGreaterThan(400);
  });

  it('answers most generated V12 contracts of a generic template, soundly, whole and damaged', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        arbGenericArgument,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
        (createArg, salt, mutations) => {
          let computed: ReturnType<typeof computeContractId>;
          try {
            computed = computeContractId({
              contract: {
                serializationVersion: '2.1',
                layout: 'current',
                packageName: 'gen',
                templateId,
                createArg,
                signatories: ['alice::1220'],
                stakeholders: ['alice::1220', 'bob::1220'],
                nonMaintainerSignatories: ['alice::1220'],
                nonSignatoryStakeholders: ['bob::1220'],
                createdAt: 1_700_000_000_000_000n,
                key: null,
                packageVersion: [],
              },
              version: 'v12',
              discriminator: new Uint8Array(32),
              salt,
              types: genericEnv,
              sha256: sha256Node,
            });
          } catch {
            // a value that does not fit the type (a scale-9 numeric): nothing to verify
            return;
          }
          const blob = encodeCreatedEventBlob(computed.contract);
          if (sound(engine, blob, computed.contractIdHex, genericEnv)) answered++;
          sound(engine, mutate(blob, mutations), computed.contractIdHex, genericEnv);
        },
      ),
      { numRuns: 400, seed: 7 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('declines where a type writes more than its room (long-named empty records), and keeps working', () => {
    const long = Array.from({ length: 9 }, (_, i) => `Segment${i}${'x'.repeat(90)}`);
    const PKG = 'ef'.repeat(32);
    const env = createTypeEnv(
      parseTypeFile({
        format: 'reserve-audit/type-file@1',
        packages: [
          {
            id: PKG,
            name: 'wide',
            version: '1.0.0',
            dataTypes: {
              'W:T': { record: [['xs', { list: { con: `${long.join('.')}:E` } }]] },
              [`${long.join('.')}:E`]: { record: [] },
            },
          },
        ],
      }).packages,
    );
    const createArg: Value = {
      kind: 'record',
      fields: [
        {
          kind: 'list',
          elements: Array.from({ length: 12_000 }, (): Value => ({ kind: 'record', fields: [] })),
        },
      ],
    };
    const computed = computeContractId({
      contract: {
        serializationVersion: '2.1',
        layout: 'current',
        packageName: 'wide',
        templateId: { packageId: PKG, module: ['W'], entity: ['T'] },
        createArg,
        signatories: ['alice::1220'],
        stakeholders: ['alice::1220'],
        nonMaintainerSignatories: ['alice::1220'],
        nonSignatoryStakeholders: [],
        createdAt: 1_700_000_000_000_000n,
        key: null,
        packageVersion: [],
      },
      version: 'v12',
      discriminator: new Uint8Array(32),
      salt: new Uint8Array(32).fill(7),
      types: env,
      sha256: sha256Node,
    });
    const blob = encodeCreatedEventBlob(computed.contract);
    expect(blob.length).toBeLessThan(65_536);
    expect(engine.verify(blob, computed.contractIdHex, env)).toBeNull();
    expect(verifyContractId({ contractId: computed.contractIdHex, blob, types: env }).ok).toBe(true);
    for (const v of all)
      expect(
        sound(engine, decodeBase64Node(v.createdEventBlobBase64) as Uint8Array, v.contractId, splice),
      ).toBe(true);
  });
});

describe("the WebAssembly engine's module", () => {
  it('matches `npm run gen:wasm` (src/core/verdict/wasm/generated/ is not stale)', () => {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'gen-wasm.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(out).toContain('up to date');
  });

  it('reads kinds as the current layout numbers its Value fields (type nodes use the one for the other)', () => {
    for (const k of Object.values(K)) expect(CURRENT_VALUE.fieldByKind[k]).toBe(k);
    expect(Object.values(K).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });
});
