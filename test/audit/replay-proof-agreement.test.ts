/**
 * One proof step, three consumers (src/core/proof/reserve-proof.ts): the same reserve contracts —
 * a good one, a tampered blob, a wrong published ID, a template outside the reserve profile and an
 * undecodable blob — go through `audit` (pool proof status + the mirror record it writes),
 * snapshot recording (the proof result + the mirror record it writes) and `replay` (its per-contract
 * check, over both mirrors), and all three must agree on every contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../src/core/audit/index.js';
import { decodeCreatedEventBlob, encodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { computeContractId } from '../../src/core/hash/index.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/profile.js';
import type { ProofReasonCode, ReserveProofStatus } from '../../src/core/proof/reserve-proof.js';
import type { TypeEnv } from '../../src/core/types/type-env.js';
import { loadTypesOrDefault } from '../../src/io/files/default-types.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { iterateContracts, type MirrorContract, openMirror } from '../../src/io/store/index.js';
import { wrapSqliteMirror } from '../../src/io/store/sqlite-store.js';
import { runAudit } from '../../src/run/audit.js';
import { runReplay } from '../../src/run/replay.js';
import { takeSnapshot } from '../../src/run/snapshot.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';

type Rc = { contract_id: string; created_event_blob: string; template: { entity_name: string } };
type ProofBody = { data: { pools: { pool_id: string; reserve_contract: Rc }[] } };

/** The pool of the first /pools/proof entry and its contract ID as served (after any rewrite). */
let served: { poolId: string; contractId: string } | null = null;

/** Rewrites the first pool's reserve contract in every /pools/proof response (and notes it). */
const firstProof =
  (edit?: (rc: Rc) => void): Tamper =>
  (ctx) => {
    if (ctx.path !== '/pools/proof') return undefined;
    const b = ctx.json as ProofBody;
    const first = b.data.pools[0];
    if (first === undefined) return undefined;
    edit?.(first.reserve_contract);
    served = { poolId: first.pool_id, contractId: first.reserve_contract.contract_id };
    return { json: b };
  };

const flipLastHex = (h: string): string => h.slice(0, -1) + (h.endsWith('0') ? '1' : '0');

interface Case {
  readonly name: string;
  readonly tamper: Tamper;
  /** the proof status all three must report, and the reason the proof step gives */
  readonly status: ReserveProofStatus;
  readonly reason: ProofReasonCode | null;
  /** the mirror record both audit and snapshot write */
  readonly mirror: { readonly status: string; readonly fieldsSource: 'blob' | 'published' };
}

const CASES: readonly Case[] = [
  {
    name: 'a good contract',
    tamper: firstProof(),
    status: 'proven',
    reason: null,
    mirror: { status: 'verified', fieldsSource: 'blob' },
  },
  {
    name: 'a tampered blob (reserve changed, contract ID kept)',
    tamper: firstProof((rc) => {
      const c = decodeCreatedEventBlob(rc.created_event_blob);
      if (c.createArg.kind !== 'record') throw new Error('not a record');
      const fields = c.createArg.fields.map((f, i) =>
        i === 4 ? { kind: 'numeric' as const, value: '1.0000000000' } : f,
      );
      const tampered = { ...c, createArg: { ...c.createArg, fields } };
      rc.created_event_blob = Buffer.from(encodeCreatedEventBlob(tampered)).toString('base64');
    }),
    status: 'failed',
    reason: 'ID_NOT_RECOMPUTED',
    mirror: { status: 'mismatch', fieldsSource: 'published' },
  },
  {
    name: 'a wrong published contract ID',
    tamper: firstProof((rc) => {
      rc.contract_id = flipLastHex(rc.contract_id);
    }),
    status: 'failed',
    reason: 'PUBLISHED_ID_MISMATCH',
    mirror: { status: 'mismatch', fieldsSource: 'published' },
  },
  {
    name: 'a template outside the reserve profile',
    tamper: firstProof((rc) => {
      const c = decodeCreatedEventBlob(rc.created_event_blob);
      const rng = createSeededRng('agreement-template');
      const minted = computeContractId({
        contract: { ...c, templateId: { ...c.templateId, entity: ['PoolReserveLite'] } },
        version: 'v10',
        discriminator: rng.bytes(32),
        salt: rng.bytes(32),
        sha256: sha256Node,
      });
      rc.contract_id = minted.contractIdHex;
      rc.created_event_blob = Buffer.from(encodeCreatedEventBlob(minted.contract)).toString('base64');
      rc.template.entity_name = 'PoolReserveLite';
    }),
    status: 'failed',
    reason: 'TEMPLATE_UNEXPECTED',
    mirror: { status: 'verified', fieldsSource: 'published' },
  },
  {
    name: 'an undecodable blob',
    tamper: firstProof((rc) => {
      rc.created_event_blob = 'AAAA';
    }),
    status: 'failed',
    reason: 'BLOB_MALFORMED',
    mirror: { status: 'could-not-check', fieldsSource: 'published' },
  },
];

/** replay's per-contract check status for a proof status (its findings are the proof's). */
const REPLAY_STATUS: Readonly<Record<ReserveProofStatus, CheckStatus>> = {
  proven: 'pass',
  failed: 'fail',
  unverifiable: 'could-not-check',
};

let s: AuditServer;
let types: TypeEnv;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'proof-agreement' });
  types = await loadTypesOrDefault({});
  dir = mkdtempSync(join(tmpdir(), 'ra-agreement-'));
}, 30_000);
afterAll(async () => {
  s.setTamper(undefined);
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function storedContract(path: string, contractId: string): MirrorContract | undefined {
  const m = openMirror(path, { readonly: true });
  try {
    return [...iterateContracts(m)].find((c) => c.contractId === contractId);
  } finally {
    m.close();
  }
}

async function replayStatus(path: string, poolId: string): Promise<CheckStatus | undefined> {
  const r = await runReplay({ mirrorPath: path, profile: DEFAULT_RESERVE_PROFILE });
  return r.checks.find((c) => c.name === 'replay.contract' && c.pool === poolId)?.status;
}

describe('audit, snapshot recording and replay agree on every contract', () => {
  it.each(CASES)(
    '$name',
    async (k) => {
      s.setTamper(k.tamper);
      const slug = k.name.replace(/[^a-z]+/g, '-');
      const auditMirror = join(dir, `${slug}-audit.db`);
      const snapshotMirror = join(dir, `${slug}-snapshot.db`);

      // audit: the pool's proof status, and the mirror record it writes
      served = null;
      // the server is in this process: no pacing (test/http/pacer.test.ts tests it)
      const report = await runAudit({ baseUrl: s.base, mirrorPath: auditMirror, maxRps: 1000 });
      // snapshot recording: the proof result itself, and the mirror record it writes
      const m = openMirror(snapshotMirror);
      let snap: Awaited<ReturnType<typeof takeSnapshot>>;
      try {
        snap = await takeSnapshot({ mirror: wrapSqliteMirror(m), baseUrl: s.base, types });
      } finally {
        m.close();
      }
      s.setTamper(undefined);

      const { poolId, contractId } = served ?? { poolId: '', contractId: '' };
      expect(contractId).not.toBe('');
      const proof = snap.proofs.get(contractId);
      expect(proof?.status).toBe(k.status);
      expect(proof?.reasons.map((r) => r.code)[0] ?? null).toBe(k.reason);
      expect(report.pools.find((p) => p.poolId === poolId)?.proof).toBe(k.status);

      const fromAudit = storedContract(auditMirror, contractId);
      const fromSnapshot = storedContract(snapshotMirror, contractId);
      expect(fromAudit?.verificationStatus).toBe(k.mirror.status);
      expect(fromAudit?.fieldsSource).toBe(k.mirror.fieldsSource);
      expect({ ...fromSnapshot, firstSeenMs: 0, lastSeenMs: 0 }).toEqual({
        ...fromAudit,
        firstSeenMs: 0,
        lastSeenMs: 0,
      });

      expect(await replayStatus(snapshotMirror, poolId)).toBe(REPLAY_STATUS[k.status]);
      expect(await replayStatus(auditMirror, poolId)).toBe(REPLAY_STATUS[k.status]);
    },
    60_000,
  );
});
