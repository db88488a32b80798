/**
 * The real splice-amulet DARs (../shared/dars; never copied into the repo): every dalf's package id
 * recomputes, 0.1.17 types the three V12 blob vectors to exactly `typedCreateArgForV12` and they
 * verify (contract hash + ID), 0.1.14 yields the round and amulet templates' types, and the
 * upgrade rule (a newer same-name package types an unloaded id; an older one is refused).
 * Skips, saying so, when ../shared/dars is absent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import type { DataTypeDef, PackageTypes } from '../../src/core/types/daml-type.js';
import {
  computeReachableTypes,
  decodeArchive,
  decodeZip,
  detectDalfKind,
  type LoadedDar,
  loadArchivePayload,
  loadDar,
} from '../../src/core/types/dar/index.js';
import { addKnownPackageVersion, createTypeEnv, type TypeEnv } from '../../src/core/types/type-env.js';
import { typeCreateArgument } from '../../src/core/types/type-value.js';
import { loadDarFile, loadTypeEnvFromFiles } from '../../src/io/files/dar-file.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { toTypedValue } from '../hash/vector-value.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const dir = sharedDarsDir();
if (dir === null) console.warn(`test/dar/real-dars.test.ts: ${SHARED_DARS_SKIP_REASON}`);
const v12 = loadContractIdVectors().blobVectors.filter((b) => b.typedCreateArgForV12 !== undefined);
const ID_14 = '3ca1343ab26b453d38c8adb70dca5f1ead8440c42b59b68f070786955cbf9ec1';
const ID_17 = '6c5802f86709a0ad4784af81f0bab40f3070b2f58128d8843da1e1784c147802';
const inflateRaw = (b: Uint8Array, max: number) => inflateRawSync(b, { maxOutputLength: Math.max(1, max) });

describe.skipIf(dir === null)(
  'the real Splice DARs (not redistributable: the skip note says where to get them)',
  () => {
    const dars: Record<string, LoadedDar> = {};
    let env17: TypeEnv;
    beforeAll(async () => {
      for (const v of ['0.1.14', '0.1.17']) dars[v] = await loadDarFile(join(dir!, `splice-amulet-${v}.dar`));
      env17 = createTypeEnv(dars['0.1.17']!.packages.map((p) => p.types));
    });

    it.each([
      ['0.1.14', 37, ID_14],
      ['0.1.17', 38, ID_17],
    ] as const)(
      '%s: every dalf recomputes to its declared id, and to the id in its zip path',
      (v, n, mainId) => {
        const dar = dars[v]!;
        expect(dar.packages).toHaveLength(n);
        expect(dar.manifest?.dalfs).toHaveLength(n);
        expect(dar.unresolved).toEqual([]);
        for (const p of dar.packages) {
          expect(p.idVerified).toBe(true);
          expect(p.path).toContain(p.packageId);
          expect(p.lfVersion).toBe('2.1');
        }
        const main = dar.packages[0]!;
        expect(main).toMatchObject({ main: true, packageId: mainId, name: 'splice-amulet', version: v });
        expect(dar.packages.filter((p) => p.main)).toHaveLength(1);
      },
    );

    it('the pure loader with the table CRC-32 and node:zlib CRC-32 gives the same packages', () => {
      const bytes = readFileSync(join(dir!, 'splice-amulet-0.1.14.dar'));
      const a = loadDar(bytes, { inflateRaw, sha256: sha256Node });
      const b = loadDar(bytes, { inflateRaw, sha256: sha256Node, crc32: (d) => crc32(d) });
      expect(a.packages.map((p) => p.packageId)).toEqual(b.packages.map((p) => p.packageId));
      expect(decodeZip(bytes, { inflateRaw }).entries.length).toBeGreaterThan(37);
    });

    it('every dalf is told apart from its bare ArchivePayload, and the payload (participant download) loads to the same types', () => {
      const bytes = readFileSync(join(dir!, 'splice-amulet-0.1.17.dar'));
      const zip = decodeZip(bytes, { inflateRaw });
      const dar = dars['0.1.17']!;
      for (const p of dar.packages) {
        const dalf = zip.readEntry(p.path!);
        expect(detectDalfKind(dalf)).toBe('archive');
        const payload = decodeArchive(dalf, sha256Node).payload;
        expect(detectDalfKind(payload)).toBe('payload');
        const fromPayload = loadArchivePayload(payload, {
          sha256: sha256Node,
          expectedPackageId: p.packageId,
        });
        expect(fromPayload.packages[0]).toMatchObject({
          packageId: p.packageId,
          idVerified: true,
          name: p.name,
        });
        expect(fromPayload.packages[0]!.types.dataTypes).toEqual(p.types.dataTypes);
      }
      const main = zip.readEntry(dar.packages[0]!.path!);
      const payload = decodeArchive(main, sha256Node).payload;
      expect(() => loadArchivePayload(payload, { sha256: sha256Node, expectedPackageId: ID_14 })).toThrow(
        expect.objectContaining({ code: 'DAR_PACKAGE_HASH_MISMATCH' }),
      );
    });

    it('a package cache skips decoding of packages already seen (same objects)', () => {
      const cache = new Map();
      const a = loadDar(readFileSync(join(dir!, 'splice-amulet-0.1.14.dar')), {
        inflateRaw,
        sha256: sha256Node,
        cache,
      });
      const b = loadDar(readFileSync(join(dir!, 'splice-amulet-0.1.17.dar')), {
        inflateRaw,
        sha256: sha256Node,
        cache,
      });
      const stdA = a.packages.find((p) => p.name === 'daml-prim-DA-Types')!;
      const stdB = b.packages.find((p) => p.name === 'daml-prim-DA-Types')!;
      expect(stdA.packageId).toBe(stdB.packageId);
      expect(stdB.types).toBe(stdA.types);
    });

    describe.each(v12.map((b) => [b.name, b] as const))('0.1.17 types %s', (_n, b) => {
      it('to exactly its typedCreateArgForV12 tree', () => {
        const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
        expect(c.templateId.packageId).toBe(ID_17);
        const typed = typeCreateArgument(c, env17);
        expect(typed.upgraded).toBe(false);
        expect(typed.packageId).toBe(ID_17);
        expect(typed.value).toEqual(toTypedValue(b.typedCreateArgForV12!));
      });
      it('and verifies: contract hash, unicum and contract ID', () => {
        const r = verifyContractId({
          contractId: b.contractId,
          blob: b.createdEventBlobBase64,
          types: env17,
          sha256: sha256Node,
        });
        expect(r.reasons).toEqual([]);
        expect(r.status).toBe('verified');
        expect(r.contractHash).toBe(b.expected.contractHashHex);
        expect(r.expectedSuffix).toBe(b.expected.suffixHex);
      });
    });

    describe('0.1.14 type trees', () => {
      const reach = (entity: string) => {
        const dar = dars['0.1.14']!;
        const pkgs = new Map<string, PackageTypes>(dar.packages.map((p) => [p.packageId, p.types]));
        const [module, ent] = entity.split(':') as [string, string];
        return computeReachableTypes(pkgs, { module: module.split('.'), entity: ent.split('.') }, ID_14);
      };
      const find = (defs: readonly { def: DataTypeDef }[], qn: string) =>
        defs.find((d) => `${d.def.name.module.join('.')}:${d.def.name.entity.join('.')}` === qn)?.def;

      it('Splice.Round:OpenMiningRound: fields, Numeric 10 price, Round{number}, TransferConfig USD', () => {
        const r = reach('Splice.Round:OpenMiningRound');
        const root = r.dataTypes[0]!.def;
        expect(root.kind).toBe('record');
        if (root.kind !== 'record') return;
        expect(root.fields.map((f) => f.name)).toEqual([
          'dso',
          'round',
          'amuletPrice',
          'opensAt',
          'targetClosesAt',
          'issuingFor',
          'transferConfigUsd',
          'issuanceConfig',
          'tickDuration',
        ]);
        expect(root.fields[2]!.type).toEqual({ kind: 'numeric', scale: 10 });
        expect(root.fields[0]!.type).toEqual({ kind: 'party' });
        const round = find(r.dataTypes, 'Splice.Types:Round');
        expect(round).toEqual({
          kind: 'record',
          name: { module: ['Splice', 'Types'], entity: ['Round'] },
          params: [],
          fields: [{ name: 'number', type: { kind: 'int64' } }],
        });
        const tc = root.fields[6]!.type;
        expect(tc.kind === 'con' && tc.args[0]).toMatchObject({
          kind: 'con',
          ref: { module: ['Splice', 'AmuletConfig'], entity: ['USD'] },
        });
        expect(find(r.dataTypes, 'Splice.AmuletConfig:USD')).toMatchObject({
          kind: 'enum',
          constructors: ['USD'],
        });
        expect(find(r.dataTypes, 'DA.Types:Tuple2')).toMatchObject({
          params: ['t1', 't2'],
          fields: [{ name: '_1' }, { name: '_2' }],
        });
        const rel = r.dataTypes.find((d) => d.def.name.entity[0] === 'RelTime')!;
        expect(rel.packageId).not.toBe(ID_14); // lives in daml-stdlib-DA-Time-Types
        expect(r.packages[0]!.templates).toEqual(new Set(['Splice.Round:OpenMiningRound']));
      });

      it('Splice.Round:IssuingMiningRound: round, issuance rates as Numeric 10, optional fields', () => {
        const root = reach('Splice.Round:IssuingMiningRound').dataTypes[0]!.def;
        if (root.kind !== 'record') throw new Error('not a record');
        const f = new Map(root.fields.map((x) => [x.name, x.type]));
        expect(f.get('round')).toMatchObject({ kind: 'con', ref: { entity: ['Round'] } });
        expect(f.get('issuancePerValidatorRewardCoupon')).toEqual({ kind: 'numeric', scale: 10 });
        expect(f.get('optIssuancePerValidatorFaucetCoupon')).toEqual({
          kind: 'optional',
          type: { kind: 'numeric', scale: 10 },
        });
      });

      it('Splice.Amulet:Amulet: dso, owner, amount = ExpiringAmount{initialAmount, createdAt, ratePerRound}', () => {
        const r = reach('Splice.Amulet:Amulet');
        const root = r.dataTypes[0]!.def;
        if (root.kind !== 'record') throw new Error('not a record');
        expect(root.fields.map((x) => x.name)).toEqual(['dso', 'owner', 'amount']);
        const ea = find(r.dataTypes, 'Splice.Fees:ExpiringAmount');
        if (ea?.kind !== 'record') throw new Error('no ExpiringAmount');
        expect(ea.fields.map((x) => x.name)).toEqual(['initialAmount', 'createdAt', 'ratePerRound']);
        expect(ea.fields[0]!.type).toEqual({ kind: 'numeric', scale: 10 });
      });
    });

    describe('upgrade rule with DAR-loaded packages', () => {
      const featured = () => v12.find((b) => b.name.includes('FeaturedAppRight'))!;
      const OTHER_ID = 'ab'.repeat(32);

      it('an unloaded id of splice-amulet 0.1.15 is typed with the loaded 0.1.17, and says so', () => {
        const c = decodeCreatedEventBlob(featured().createdEventBlobBase64);
        const env = createTypeEnv(dars['0.1.17']!.packages.map((p) => p.types));
        addKnownPackageVersion(env, OTHER_ID, '0.1.15');
        const typed = typeCreateArgument({ ...c, templateId: { ...c.templateId, packageId: OTHER_ID } }, env);
        expect(typed.upgraded).toBe(true);
        expect(typed.packageId).toBe(ID_17);
        expect(typed.note).toMatch(/newer package version/);
        expect(typed.value).toEqual(toTypedValue(featured().typedCreateArgForV12!));
      });

      it('a blob of 0.1.17 is refused when only the older 0.1.14 is loaded', () => {
        const c = decodeCreatedEventBlob(featured().createdEventBlobBase64);
        const env = createTypeEnv(dars['0.1.14']!.packages.map((p) => p.types));
        addKnownPackageVersion(env, ID_17, '0.1.17');
        expect(() => typeCreateArgument(c, env)).toThrow(expect.objectContaining({ code: 'TYPE_NOT_FOUND' }));
        const r = verifyContractId({
          contractId: featured().contractId,
          blob: featured().createdEventBlobBase64,
          types: env,
        });
        expect(r.status).toBe('could-not-check');
      });

      it('loadTypeEnvFromFiles with both DARs types the 0.1.17 vectors exactly', async () => {
        const {
          env,
          dars: loaded,
          unresolved,
        } = await loadTypeEnvFromFiles({
          dars: [join(dir!, 'splice-amulet-0.1.14.dar'), join(dir!, 'splice-amulet-0.1.17.dar')],
        });
        expect(loaded).toHaveLength(2);
        expect(unresolved).toEqual([]);
        expect(env.packages.has(ID_14) && env.packages.has(ID_17)).toBe(true);
        for (const b of v12) {
          const r = verifyContractId({
            contractId: b.contractId,
            blob: b.createdEventBlobBase64,
            types: env,
            sha256: sha256Node,
          });
          expect(r.status).toBe('verified');
          expect(r.typing?.upgraded).toBe(false);
        }
      });
    });
  },
);
