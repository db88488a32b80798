/**
 * The proof step's verdict detail (src/core/proof/reserve-proof.ts, `detail: 'verdict'` with a
 * verdict engine in the context) against the full step, and replay's findings with and without the
 * engine: the same status, template, creation time and fields — and the engine answers only where
 * the full step says `proven` — on minted reserve contracts of every contract-ID version (with the
 * simulator's types, without types, with a by-label and a by-position profile), on every real vector
 * (with a profile made for its template), and on mutated blobs with their own and a foreign ID.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob, parseBase64 } from '../../src/core/codec/index.js';
import type { Value } from '../../src/core/codec/value.js';
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { DEFAULT_RESERVE_PROFILE, type ReserveProfile } from '../../src/core/proof/profile.js';
import { createProofContext } from '../../src/core/proof/proof-context.js';
import { verifyReserveProof } from '../../src/core/proof/reserve-proof.js';
import type { TypeEnv } from '../../src/core/types/type-env.js';
import { createWasmVerdictEngine } from '../../src/core/verdict/wasm/engine.js';
import { sha256Node, sha256NodeBinary } from '../../src/io/node-sha256.js';
import { replayStoredContract, type StoredContractInput } from '../../src/run/replay-contract.js';
import { mintReserveContract, RESERVE_TYPE_ENV } from '../../src/sim/mint.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { spliceTypeEnv } from '../hash/fixture-env.js';
import { arbMutation, mutate } from '../helpers/blob-fuzz.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

/** The reserve profile of the simulator's template by position only (no labels). */
const BY_POSITION: ReserveProfile = {
  name: 'by-position',
  templates: [
    {
      packageName: 'amm-pools',
      moduleName: 'Amm.Pool',
      entityName: 'PoolReserve',
      packageIds: null,
      fields: {
        pool_id: { label: null, position: 1, type: 'Text' },
        token_a: { label: null, position: 2, type: 'InstrumentId' },
        reserve_a: { label: null, position: 4, type: 'Numeric' },
        reserve_b: { label: null, position: 5, type: 'Numeric' },
        total_lp_supply: { label: null, position: 6, type: 'Numeric' },
      },
    },
  ],
};

/** A profile whose positions point at the wrong kinds of field (unreadable: never proven). */
const WRONG_KINDS: ReserveProfile = {
  name: 'wrong-kinds',
  templates: [
    {
      ...BY_POSITION.templates[0]!,
      fields: {
        reserve_a: { label: null, position: 0, type: 'Numeric' },
        reserve_b: { label: null, position: 5, type: 'Numeric' },
        total_lp_supply: { label: null, position: 6, type: 'Numeric' },
      },
    },
  ],
};

interface Case {
  readonly contractId: string;
  readonly blob: Uint8Array;
  readonly types: TypeEnv | undefined;
  readonly profile: ReserveProfile;
}

const context = createProofContext(createWasmVerdictEngine(sha256NodeBinary));
/** the full step, every time */
const noEngine = createProofContext(null);

/** how many cases the engine answered */
let engineAnswered = 0;

/** Both details on one case; returns true when the engine answered (the full step proved it). */
function same(c: Case): boolean {
  const full = verifyReserveProof({ ...c, sha256: sha256Node });
  const quick = verifyReserveProof({ ...c, sha256: sha256Node, detail: 'verdict', context });
  expect(quick.status).toBe(full.status);
  expect(quick.provenFields).toEqual(full.provenFields);
  expect(quick.blobFields).toEqual(full.blobFields);
  expect(quick.template).toEqual(full.template);
  expect(quick.createdAtMicros).toBe(full.createdAtMicros);
  expect(quick.reasons).toEqual(full.reasons);
  if (quick.evidence !== null) {
    expect(quick).toEqual(full);
    return false;
  }
  engineAnswered++;
  expect(full.status).toBe('proven');
  expect(quick.idStatus).toBe(full.idStatus);
  expect(quick.templateProfile).toEqual(full.templateProfile);
  return true;
}

const rng = createSeededRng('reserve-proof-detail');
const tok = (id: string) => ({ admin: `${id.toLowerCase()}::1220aa`, id });

function mint(version: ContractIdVersion, k: number, previous: Uint8Array | null = null) {
  return mintReserveContract({
    fields: {
      operator: 'operator::1220aa',
      poolId: `pool-${k}`,
      tokenA: tok('CC'),
      tokenB: tok(`T${k}`),
      reserveA: `${1_000_000 + k}.0000000000`,
      reserveB: `${2_000_000 - k}.5000000000`,
      totalLpSupply: '1000.0000000000',
      feeRate: '0.0030000000',
      sequence: BigInt(k),
      previous,
    },
    version,
    createdAtMicros: 1_790_000_000_000_000n + BigInt(k),
    rng,
    sha256: sha256Node,
  });
}

const VERSIONS: readonly ContractIdVersion[] = ['v10', 'v11', 'v12'];
const minted = VERSIONS.flatMap((v) => {
  const first = mint(v, 0);
  // the second one links back to the first (an optional contract ID in the argument)
  return [first, mint(v, 1, first.contractIdBytes), mint(v, 2)].map((m) => ({ version: v, ...m }));
});

describe('the verdict detail agrees with the full proof step', () => {
  it('on minted reserve contracts of every version, with and without types and profile labels', () => {
    for (const m of minted) {
      const base = { contractId: m.contractId, blob: m.blob };
      // the simulator's types and the default (by-label) profile: always proven
      expect(same({ ...base, types: RESERVE_TYPE_ENV, profile: DEFAULT_RESERVE_PROFILE })).toBe(true);
      expect(same({ ...base, types: RESERVE_TYPE_ENV, profile: BY_POSITION })).toBe(true);
      // no types: V12 cannot be verified, V10/V11 by position only
      expect(same({ ...base, types: undefined, profile: BY_POSITION })).toBe(m.version !== 'v12');
      // (the default profile gives positions as well as labels)
      expect(same({ ...base, types: undefined, profile: DEFAULT_RESERVE_PROFILE })).toBe(m.version !== 'v12');
      // the wrong types (a V12 ID cannot be recomputed), unreadable fields, a foreign template
      same({ ...base, types: spliceTypeEnv(), profile: DEFAULT_RESERVE_PROFILE });
      expect(same({ ...base, types: RESERVE_TYPE_ENV, profile: WRONG_KINDS })).toBe(false);
      expect(same({ ...base, types: RESERVE_TYPE_ENV, profile: { name: 'none', templates: [] } })).toBe(
        false,
      );
    }
  });

  it('on a published ID that is not the embedded one, and on a non-canonical published ID', () => {
    const [a, b] = minted;
    expect(
      same({ contractId: b!.contractId, blob: a!.blob, types: RESERVE_TYPE_ENV, profile: BY_POSITION }),
    ).toBe(false);
    expect(
      same({
        contractId: a!.contractId.toUpperCase(),
        blob: a!.blob,
        types: RESERVE_TYPE_ENV,
        profile: BY_POSITION,
      }),
    ).toBe(false);
    expect(
      same({ contractId: 'nonsense', blob: a!.blob, types: RESERVE_TYPE_ENV, profile: BY_POSITION }),
    ).toBe(false);
  });

  it('on every real vector, with a profile made for its template (its first Numeric field)', () => {
    const splice = spliceTypeEnv();
    let proven = 0;
    for (const v of loadContractIdVectors().blobVectors) {
      const blob = parseBase64(v.createdEventBlobBase64);
      const c = decodeCreatedEventBlob(blob);
      const fields = c.createArg.kind === 'record' ? c.createArg.fields : [];
      const at = fields.findIndex((f: Value) => f.kind === 'numeric');
      const numeric = { label: null, position: at < 0 ? 0 : at, type: 'Numeric' as const };
      const profile: ReserveProfile = {
        name: v.name,
        templates: [
          {
            packageName: c.packageName,
            moduleName: c.templateId.module.join('.'),
            entityName: c.templateId.entity.join('.'),
            packageIds: null,
            fields: { reserve_a: numeric, reserve_b: numeric, total_lp_supply: numeric },
          },
        ],
      };
      for (const types of [splice, undefined]) {
        if (same({ contractId: v.contractId, blob, types, profile })) proven++;
        same({ contractId: v.contractId, blob, types, profile: DEFAULT_RESERVE_PROFILE });
      }
    }
    // some real contracts have a Numeric field and are proven by the engine
    expect(proven).toBeGreaterThan(0);
    expect(engineAnswered).toBeGreaterThan(0);
  });

  it('on 2,000 mutated minted blobs with their own and a foreign contract ID', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: minted.length - 1 }),
        fc.array(arbMutation, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (i, muts, withTypes) => {
          const m = minted[i]!;
          const blob = mutate(m.blob, muts);
          const types = withTypes ? RESERVE_TYPE_ENV : undefined;
          same({ contractId: m.contractId, blob, types, profile: BY_POSITION });
          const foreign = minted[(i + 1) % minted.length]!.contractId;
          expect(same({ contractId: foreign, blob, types, profile: DEFAULT_RESERVE_PROFILE })).toBe(false);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('replay gives the same findings with and without the engine', () => {
  const input = (
    m: (typeof minted)[number],
    over: Partial<StoredContractInput> = {},
  ): StoredContractInput => {
    const c = decodeCreatedEventBlob(m.blob);
    const f = c.createArg.kind === 'record' ? c.createArg.fields : [];
    const num = (i: number) => (f[i]?.kind === 'numeric' ? f[i].value : '');
    return {
      contractId: m.contractId,
      poolId: 'pool',
      blob: m.blob,
      reserveA: num(4),
      reserveB: num(5),
      totalLpSupply: num(6),
      ...over,
    };
  };

  it('the same findings and proven values for recorded values that agree, differ or are equal decimals', () => {
    for (const m of minted) {
      const cases = [
        input(m),
        input(m, { reserveA: '1' }),
        input(m, { totalLpSupply: `${input(m).totalLpSupply}00` }),
        input(m, { reserveB: 'not a number' }),
        input(m, {
          contractId: minted[0]!.contractId === m.contractId ? minted[1]!.contractId : minted[0]!.contractId,
        }),
        input(m, { blob: m.blob.subarray(0, m.blob.length - 3) }),
      ];
      for (const k of cases)
        expect(replayStoredContract(k, RESERVE_TYPE_ENV, DEFAULT_RESERVE_PROFILE, context)).toEqual(
          replayStoredContract(k, RESERVE_TYPE_ENV, DEFAULT_RESERVE_PROFILE, noEngine),
        );
    }
  });
});
