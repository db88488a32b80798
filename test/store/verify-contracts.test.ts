/**
 * verifySnapshotContracts (src/run/snapshot.ts, the one proof step of src/core/proof) and the
 * mirror record derived from it (computeContractVerification) on real reserve contracts minted by
 * the reference server: genuine proofs verify and their reserves are read from the blob; a proof
 * whose contract ID was altered is a mismatch; a blob that does not decode is could-not-check;
 * settled contracts are not verified again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TypeEnv } from '../../src/core/types/type-env.js';
import type { ApiSnapshot, PoolsProofResponse } from '../../src/core/wire/index.js';
import { loadTypeEnvFromFiles } from '../../src/io/files/dar-file.js';
import { fetchSnapshot } from '../../src/io/http/index.js';
import { iterateContracts, openMirror, recordSnapshot } from '../../src/io/store/index.js';
import { wrapSqliteMirror } from '../../src/io/store/sqlite-store.js';
import { computeContractVerifications, verifySnapshotContracts } from '../../src/run/snapshot.js';
import { type ReferenceServer, startReferenceServer } from '../wire/reference-server.js';

let server: ReferenceServer;
let snap: ApiSnapshot;
let types: TypeEnv;
let dir: string;

beforeAll(async () => {
  server = await startReferenceServer();
  snap = await fetchSnapshot({ baseUrl: server.base, now: () => server.clock.nowMs() });
  types = (
    await loadTypeEnvFromFiles({
      typeFiles: [fileURLToPath(new URL('../../fixtures/types/amm-pools.json', import.meta.url))],
    })
  ).env;
  dir = mkdtempSync(join(tmpdir(), 'ra-verify-'));
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function withProofs(s: ApiSnapshot, edit: (p: PoolsProofResponse) => PoolsProofResponse): ApiSnapshot {
  if (!s.proofsBefore.ok || !s.proofsAfter.ok) throw new Error('no proofs');
  return {
    ...s,
    startedAtMs: s.startedAtMs + 1,
    proofsBefore: { ok: true, value: edit(s.proofsBefore.value) },
    proofsAfter: { ok: true, value: edit(s.proofsAfter.value) },
  };
}

describe('verifySnapshotContracts', () => {
  it('genuine proofs verify; reserves are read from the blob and match the published ones', async () => {
    const m = openMirror(join(dir, 'a.db'));
    try {
      const v = computeContractVerifications(
        await verifySnapshotContracts(wrapSqliteMirror(m), snap, { types }),
      );
      if (!snap.proofsAfter.ok) throw new Error('no proofs');
      expect(v.size).toBe(snap.proofsAfter.value.data.pools.length);
      for (const p of snap.proofsAfter.value.data.pools) {
        const r = v.get(p.reserve_contract.contract_id);
        expect(r?.status, r?.reason ?? '').toBe('verified');
        expect(r?.decoded?.reserveA).toBe(p.reserve_contract.reserve_a);
        expect(r?.decoded?.totalLpSupply).toBe(p.reserve_contract.total_lp_supply);
      }
      recordSnapshot(m, snap, v);
      expect(
        [...iterateContracts(m)].every(
          (c) => c.fieldsSource === 'blob' && c.verificationStatus === 'verified',
        ),
      ).toBe(true);
      // settled contracts are skipped next time
      expect((await verifySnapshotContracts(wrapSqliteMirror(m), snap, { types })).size).toBe(0);
      expect((await verifySnapshotContracts(wrapSqliteMirror(m), snap, { types, all: true })).size).toBe(
        v.size,
      );
    } finally {
      m.close();
    }
  });

  it('an altered contract ID is a mismatch; an undecodable blob could not be checked; both are stored', async () => {
    const flip = (h: string): string => h.slice(0, -1) + (h.endsWith('0') ? '1' : '0');
    const tampered = withProofs(snap, (p) => ({
      data: {
        ...p.data,
        pools: p.data.pools.map((x, i) => ({
          ...x,
          reserve_contract: {
            ...x.reserve_contract,
            contract_id: i === 0 ? flip(x.reserve_contract.contract_id) : x.reserve_contract.contract_id,
            created_event_blob: i === 1 ? 'AAAA' : x.reserve_contract.created_event_blob,
          },
        })),
      },
    }));
    const m = openMirror(join(dir, 'b.db'));
    try {
      const v = computeContractVerifications(
        await verifySnapshotContracts(wrapSqliteMirror(m), tampered, { types }),
      );
      const statuses = [...v.values()].map((x) => x.status);
      expect(statuses.filter((s) => s === 'mismatch')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'could-not-check')).toHaveLength(1);
      const bad = [...v.values()].find((x) => x.status === 'mismatch');
      expect(bad?.reason).toMatch(/^[A-Z_]+: /);
      expect(bad?.decoded).toBeNull();
      recordSnapshot(m, tampered, v);
      const stored = [...iterateContracts(m)];
      expect(stored.filter((c) => c.verificationStatus === 'mismatch')).toHaveLength(1);
      expect(stored.find((c) => c.verificationStatus === 'mismatch')?.fieldsSource).toBe('published');
    } finally {
      m.close();
    }
  });
});
