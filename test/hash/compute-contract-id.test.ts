/**
 * Minting (computeContractId) for v10/v11/v12 → encode blob → verify ok; re-minting real blobs with
 * their own discriminator and salt reproduces the real contract IDs; tampering with the reserve
 * amount, a party, created_at, the salt or the template makes verification fail.
 */
import { describe, expect, it } from 'vitest';
import type { DecodedContract } from '../../src/core/codec/contract.js';
import {
  decodeCreatedEventBlob,
  encodeAuthenticationData,
  encodeCreatedEventBlob,
} from '../../src/core/codec/index.js';
import type { Value } from '../../src/core/codec/value.js';
import { type ContractDraft, computeContractId } from '../../src/core/hash/compute-contract-id.js';
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { createTypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { spliceTypeEnv } from './fixture-env.js';

const PKG = 'ab'.repeat(32);
const types = createTypeEnv(
  parseTypeFile({
    format: 'reserve-audit/type-file@1',
    notes: 'a minimal AMM pool template for minting tests',
    packages: [
      {
        id: PKG,
        name: 'amm-test',
        version: '1.0.0',
        templates: ['Amm.Pool:Pool'],
        dataTypes: {
          'Amm.Pool:Pool': {
            record: [
              ['operator', 'Party'],
              ['reserveA', { numeric: 10 }],
              ['reserveB', { numeric: 10 }],
              ['fee', { con: 'Amm.Pool:Fee' }],
              ['memo', { optional: 'Text' }],
            ],
          },
          'Amm.Pool:Fee': { enum: ['Low', 'High'] },
          'Amm.Pool:Other': {
            record: [
              ['operator', 'Party'],
              ['reserveA', { numeric: 10 }],
              ['reserveB', { numeric: 10 }],
              ['fee', { con: 'Amm.Pool:Fee' }],
            ],
          },
        },
      },
    ],
  }).packages,
);

const OP = 'operator::1220aa';
const pool = (reserveA = '1000.0000000000', operator = OP): Value => ({
  kind: 'record',
  fields: [
    { kind: 'party', value: operator },
    { kind: 'numeric', value: reserveA },
    { kind: 'numeric', value: '2500.5000000000' },
    { kind: 'enum', constructor: 'Low' },
  ],
});

const draft = (): ContractDraft => ({
  serializationVersion: '2.1',
  layout: 'current',
  packageName: 'amm-test',
  templateId: { packageId: PKG, module: ['Amm', 'Pool'], entity: ['Pool'] },
  createArg: pool(),
  nonMaintainerSignatories: [OP],
  nonSignatoryStakeholders: ['watcher::1220bb'],
  signatories: [OP],
  stakeholders: [OP, 'watcher::1220bb'],
  createdAt: 1_777_000_000_123_456n,
  key: null,
  packageVersion: [],
});

const disc = new Uint8Array(32).fill(0xd1);
const salt = new Uint8Array(32).map((_, i) => i);

describe.each(['v10', 'v11', 'v12'] as const)('%s', (version: ContractIdVersion) => {
  const minted = computeContractId({ contract: draft(), version, discriminator: disc, salt, types });
  const blob = encodeCreatedEventBlob(minted.contract);

  it('mints an ID that verifies', () => {
    expect(minted.contractIdHex).toMatch(
      new RegExp(`^00${'d1'.repeat(32)}ca1${version.slice(2)}1220[0-9a-f]{64}$`),
    );
    const r = verifyContractId({ contractId: minted.contractIdHex, blob, types });
    expect(r.reasons).toEqual([]);
    expect(r.ok).toBe(true);
  });

  const tampered: [string, (c: DecodedContract) => DecodedContract][] = [
    ['reserve amount', (c) => ({ ...c, createArg: pool('1000.0000000001') })],
    ['operator party in the argument', (c) => ({ ...c, createArg: pool(undefined, 'mallory::1220cc') })],
    [
      'signatory',
      (c) => ({
        ...c,
        signatories: ['mallory::1220cc'],
        nonMaintainerSignatories: ['mallory::1220cc'],
        stakeholders: ['mallory::1220cc', 'watcher::1220bb'],
      }),
    ],
    ['observer', (c) => ({ ...c, nonSignatoryStakeholders: [], stakeholders: [OP] })],
    ['created_at', (c) => ({ ...c, createdAt: c.createdAt + 1n })],
    [
      'salt',
      (c) => {
        const s = salt.slice();
        s[0] = (s[0] as number) ^ 1;
        return {
          ...c,
          authenticationData: {
            raw: encodeAuthenticationData(s),
            version: 30,
            salt: { algorithm: 1, bytes: s },
          },
        };
      },
    ],
    ['template', (c) => ({ ...c, templateId: { ...c.templateId, entity: ['Other'] } })],
    ['package name', (c) => ({ ...c, packageName: 'amm-fake' })],
  ];
  it.each(tampered)('fails after tampering with the %s', (_n, tamper) => {
    const bad = encodeCreatedEventBlob(tamper(minted.contract));
    const r = verifyContractId({ contractId: minted.contractIdHex, blob: bad, types });
    expect(r.ok).toBe(false);
    expect(r.status).toBe('mismatch');
    expect(r.reasons.map((x) => x.code)).toContain('SUFFIX_MISMATCH');
  });
});

describe('re-minting real blobs', () => {
  const env = spliceTypeEnv();
  it.each(loadContractIdVectors().blobVectors.map((b) => [b.name, b] as const))(
    '%s reproduces its contract ID',
    (_n, b) => {
      const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
      const version = (['v10', 'v11', 'v12'] as const)[
        Number(b.contractId.slice(69, 70))
      ] as ContractIdVersion;
      const m = computeContractId({
        contract: c,
        version,
        discriminator: c.contractId.subarray(1, 33),
        salt: c.authenticationData.salt?.bytes ?? new Uint8Array(),
        types: env,
      });
      expect(m.contractIdHex).toBe(b.contractId);
    },
  );
});

describe('computeContractId input errors', () => {
  it('requires 32-byte salt and discriminator, and types for v12', () => {
    expect(() =>
      computeContractId({ contract: draft(), version: 'v10', discriminator: disc, salt: new Uint8Array(3) }),
    ).toThrow(/SALT_INVALID/);
    expect(() =>
      computeContractId({ contract: draft(), version: 'v10', discriminator: new Uint8Array(1), salt }),
    ).toThrow(/SALT_INVALID/);
    expect(() => computeContractId({ contract: draft(), version: 'v12', discriminator: disc, salt })).toThrow(
      /TYPES_REQUIRED/,
    );
  });
  it('rejects a v12 argument that does not fit the template type', () => {
    const c = { ...draft(), createArg: { kind: 'record', fields: [{ kind: 'text', value: 'x' }] } as Value };
    expect(() =>
      computeContractId({ contract: c, version: 'v12', discriminator: disc, salt, types }),
    ).toThrow(/TYPE_MISMATCH/);
  });
});
