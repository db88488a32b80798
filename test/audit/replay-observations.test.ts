/**
 * Replay's history points (src/run/replay-series.ts `loadObservationSeries`): the observations are read by
 * contract row key and joined with what replay proved by key (its own batches) or by contract ID
 * (distributed replay's results); both give exactly the points of the reference join — every
 * observation read with its contract ID (`iterateObservations`) and matched by ID — on a mirror with
 * tampered contracts (not proven: resolved by the key lookup) and with a period that leaves
 * observed contracts out of the re-verified range.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryPoint } from '../../src/core/audit/index.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { parseTimestampMicros } from '../../src/core/wire/timestamp.js';
import { loadTypesOrDefault } from '../../src/io/files/default-types.js';
import { type MirrorStore, openMirrorStore } from '../../src/io/store/index.js';
import {
  createReplayContext,
  type ReplayedContract,
  replayContractBatch,
} from '../../src/run/replay-contract.js';
import { loadObservationSeries, type ReplayedContracts } from '../../src/run/replay-series.js';
import { buildReplayMirror } from './replay-mirror.js';

let dir: string;
let path: string;
const T0 = 1_790_000_000_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-replay-obs-'));
  path = join(dir, 'm.sqlite');
  buildReplayMirror(path, 120, 20, 'replay-observations');
  const db = new Database(path);
  const ids = db
    .prepare('SELECT contract_id FROM contracts ORDER BY created_at_ms, contract_id')
    .pluck()
    .all();
  db.prepare('UPDATE contracts SET blob = substr(blob, 1, 20), blob_dict = NULL WHERE contract_id = ?').run(
    ids[30],
  );
  db.prepare("UPDATE contracts SET reserve_a = '1.0000000000' WHERE contract_id = ?").run(ids[31]);
  db.close();
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Replays the contracts of a period in-process: what was proven, by key and by contract ID. */
async function replayPeriod(m: MirrorStore, fromMs?: number, toMs?: number): Promise<ReplayedContracts[]> {
  const types = await loadTypesOrDefault({});
  const keyed: ReplayedContracts = { byKey: new Map(), byId: new Map() };
  const byId: ReplayedContracts = { byKey: new Map(), byId: new Map() };
  for await (const b of m.iterateContractBatches(
    { ...(fromMs === undefined ? {} : { fromMs }), ...(toMs === undefined ? {} : { toMs }) },
    16,
  ))
    replayContractBatch(b, types, DEFAULT_RESERVE_PROFILE, createReplayContext()).forEach((r, i) => {
      const id = b.contractIds[i] ?? '';
      if (r.proven === null) return;
      keyed.byKey.set(b.contractKeys[i] ?? -1, { contractId: id, proven: r.proven });
      byId.byId.set(id, r.proven);
    });
  return [keyed, byId];
}

/** The reference: observations read with their contract IDs, matched with the proven contracts by ID. */
async function referenceSeries(
  m: MirrorStore,
  proven: ReadonlyMap<string, ReplayedContract>,
  fromMs?: number,
  toMs?: number,
): Promise<Map<string, HistoryPoint[]>> {
  const out = new Map<string, HistoryPoint[]>();
  for await (const r of m.iterateObservations({ fromMs, toMs })) {
    const k = r.contractId === null ? undefined : proven.get(r.contractId);
    const at = r.ledgerCreatedAt;
    const list = out.get(r.poolId) ?? [];
    out.set(r.poolId, list);
    list.push({
      observedAtMs: r.observedAtMs,
      contractId: r.contractId,
      ledgerCreatedAtMicros: k?.createdAtMicros ?? (at === null ? null : parseTimestampMicros(at)),
      reserveA: k?.reserveA ?? r.reserveA,
      reserveB: k?.reserveB ?? r.reserveB,
      totalLpSupply: k?.totalLpSupply ?? r.totalLpSupply,
      proven: k !== undefined,
      template: k?.template ?? null,
      blobKey: null,
    });
  }
  return out;
}

it.each([
  ['the whole mirror', undefined, undefined],
  ['a period: contracts of 2 snapshots, observations of 3', T0 + 1000, T0 + 3000],
])('history points by key = by contract ID = the reference join (%s)', async (_, fromMs, toMs) => {
  const m = await openMirrorStore(path, { readonly: true });
  try {
    const [keyed, byId] = await replayPeriod(m, fromMs, toMs === undefined ? undefined : toMs - 1000);
    const ref = await referenceSeries(m, byId?.byId ?? new Map(), fromMs, toMs);
    const points = [...ref.values()].flat();
    expect(points.length).toBeGreaterThan(0);
    expect(points.some((p) => p.proven)).toBe(true);
    expect(points.some((p) => !p.proven && p.contractId !== null)).toBe(true);
    expect(await loadObservationSeries(m, fromMs, toMs, keyed as ReplayedContracts)).toEqual(ref);
    expect(await loadObservationSeries(m, fromMs, toMs, byId as ReplayedContracts)).toEqual(ref);
  } finally {
    await m.close();
  }
});
