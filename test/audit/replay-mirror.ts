/**
 * Builds a mirror of real v12 reserve contracts for the replay tests and the replay benchmark:
 * the server's minting code (src/sim/mint.ts) mints `perSnapshot` pools' contracts
 * per synthetic snapshot (proofs only), recorded with `recordSnapshot`.
 */
import type { ApiSnapshot } from '../../src/core/wire/index.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { type MirrorStore, openMirror, recordSnapshot } from '../../src/io/store/index.js';
import { mintReserveContract } from '../../src/sim/mint.js';
import { RESERVE_PACKAGE_ID } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';

/** A synthetic snapshot holding only proofs (what the mirror's contract table is filled from). */
function proofSnapshot(i: number, proofs: unknown[]): ApiSnapshot {
  const fail = { ok: false as const, reason: 'replay fixture', code: 'FIXTURE' };
  const value = { data: { updated_at: new Date(i * 1000).toISOString(), pools: proofs } } as never;
  return {
    baseUrl: 'http://fixture/v1/public',
    startedAtMs: 1_790_000_000_000 + i * 1000,
    finishedAtMs: 1_790_000_000_000 + i * 1000 + 1,
    tokens: fail,
    swapInfo: fail,
    markets: fail,
    exchangeInfo: fail,
    poolsInfo: fail,
    proofsBefore: { ok: true, value },
    poolsState: fail,
    proofsAfter: { ok: true, value },
    stats: fail,
    volume: fail,
    aggregatorPairs: fail,
    aggregatorTickers: fail,
    orderbooks: fail,
    probeQuotes: null,
    raw: [],
  };
}

/** Writes `contracts` minted contracts (`perSnapshot` pools per snapshot) to a new mirror at `path`. */
export function buildReplayMirror(
  path: string,
  contracts: number,
  perSnapshot = 1000,
  seed = 'bench-replay',
): void {
  const mirror = openMirror(path);
  try {
    for (const s of computeReplaySnapshots(contracts, perSnapshot, seed)) recordSnapshot(mirror, s);
  } finally {
    mirror.close();
  }
}

/** The same snapshots recorded into any mirror (either backend). */
export async function recordReplaySnapshots(
  store: MirrorStore,
  contracts: number,
  perSnapshot = 1000,
  seed = 'bench-replay',
): Promise<void> {
  for (const s of computeReplaySnapshots(contracts, perSnapshot, seed)) await store.recordSnapshot(s);
}

/** The synthetic snapshots of `contracts` minted contracts, `perSnapshot` pools each (deterministic per seed). */
export function* computeReplaySnapshots(
  contracts: number,
  perSnapshot = 1000,
  seed = 'bench-replay',
): Generator<ApiSnapshot, void, undefined> {
  const rng = createSeededRng(seed);
  const tok = (id: string) => ({ admin: `${id.toLowerCase()}::1220aa`, id });
  for (let snap = 0; snap * perSnapshot < contracts; snap++) {
    const proofs: unknown[] = [];
    for (let k = 0; k < perSnapshot && snap * perSnapshot + k < contracts; k++) {
      const n = snap * perSnapshot + k;
      const ra = `${1_000_000 + snap * 7 + k}.0000000000`;
      const rb = `${2_000_000 - snap * 3}.5000000000`;
      const lp = '1000.0000000000';
      const at = BigInt(1_790_000_000_000 + snap * 1000) * 1000n + BigInt(k);
      const m = mintReserveContract({
        fields: {
          operator: 'operator::1220aa',
          poolId: `pool-${k}`,
          tokenA: tok('CC'),
          tokenB: tok(`T${k}`),
          reserveA: ra,
          reserveB: rb,
          totalLpSupply: lp,
          feeRate: '0.0030000000',
          sequence: BigInt(snap),
          previous: null,
        },
        version: 'v12',
        createdAtMicros: at,
        rng,
        sha256: sha256Node,
      });
      proofs.push({
        pool_id: `pool-${k}`,
        pool_cid: `pool-${k}`,
        token_a_instrument: tok('CC'),
        token_b_instrument: tok(`T${k}`),
        reserve_contract: {
          contract_id: m.contractId,
          update_id: `u${n}`,
          template: {
            package_id: RESERVE_PACKAGE_ID,
            package_name: 'amm-pools',
            module_name: 'Amm.Pool',
            entity_name: 'PoolReserve',
          },
          ledger_created_at: new Date(Number(at / 1000n))
            .toISOString()
            .replace('Z', `${(at % 1000n).toString().padStart(3, '0')}+00:00`),
          created_event_blob: Buffer.from(m.blob).toString('base64'),
          reserve_a: ra,
          reserve_b: rb,
          total_lp_supply: lp,
        },
      });
    }
    yield proofSnapshot(snap, proofs);
  }
}
