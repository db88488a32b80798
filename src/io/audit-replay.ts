/**
 * `replay` orchestration (the issue "replay"): re-verify every reserve contract stored in the
 * mirror once per contract ID (recompute the ID from the stored blob, read the reserves through
 * the reserve profile and compare them with what the mirror recorded), then re-run the history
 * checks over the recorded period. Pure checks from src/core/audit; this file only reads the mirror.
 */
import {
  AuditCollector,
  type AuditResult,
  checkHistorySeries,
  computeAuditOutcome,
  extractProvenFields,
  findTemplateProfile,
  type HistoryPoint,
  isSameAmount,
  makeFinding,
  parseIsoMicros,
  type ReserveProfile,
} from '../core/audit/index.js';
import { AuditError } from '../errors/audit.js';
import { loadAuditTypes, verifyProof } from './audit-run.js';
import { iterateContracts, type Mirror, openMirror } from './store/index.js';

export interface ReplayOptions {
  readonly mirrorPath: string;
  readonly fromMs?: number;
  readonly toMs?: number;
  readonly profile: ReserveProfile;
  readonly typeFiles?: readonly string[];
  readonly dars?: readonly string[];
  readonly cwd?: string;
  /** called every `progressEvery` contracts and at the end */
  readonly onProgress?: (done: number, perSecond: number) => void;
  readonly progressEvery?: number;
  readonly now?: () => number;
}

export interface ReplaySummary {
  readonly outcome: AuditResult['outcome'];
  readonly exitCode: 0 | 1 | 2;
  readonly mirror: string;
  readonly from: string | null;
  readonly to: string | null;
  readonly contracts: number;
  readonly verified: number;
  readonly mismatch: number;
  readonly couldNotCheck: number;
  readonly pools: number;
  readonly observations: number;
  readonly durationMs: number;
  /** contracts per second over the whole run (setup, contracts, history) */
  readonly contractsPerSecond: number;
  readonly phasesMs: {
    readonly setup: number;
    readonly contracts: number;
    readonly historyLoad: number;
    readonly historyChecks: number;
  };
}

export interface ReplayReport {
  readonly summary: ReplaySummary;
  readonly findings: AuditResult['findings'];
  readonly checks: AuditResult['checks'];
}

/** What re-verifying one stored contract proved. */
interface ReplayedContract {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly createdAtMicros: bigint;
  readonly template: string;
}

/**
 * The observations of the period as history points, per pool, oldest first: one streaming query
 * over the observations table only; a point is `proven` when its contract was re-verified above.
 */
function loadObservationSeries(
  mirror: Mirror,
  fromMs: number | undefined,
  toMs: number | undefined,
  replayed: ReadonlyMap<string, ReplayedContract>,
): Map<string, HistoryPoint[]> {
  const stmt = mirror.db.prepare(
    `SELECT pool_id, observed_at_ms, contract_id, ledger_created_at, reserve_a, reserve_b, total_lp_supply
     FROM observations WHERE observed_at_ms >= ? AND observed_at_ms < ? ORDER BY pool_id, observed_at_ms, snapshot_id`,
  );
  stmt.raw(true);
  const out = new Map<string, HistoryPoint[]>();
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  for (const r of stmt.iterate(
    fromMs ?? Number.MIN_SAFE_INTEGER,
    toMs ?? Number.MAX_SAFE_INTEGER,
  ) as IterableIterator<unknown[]>) {
    const poolId = String(r[0]);
    const contractId = str(r[2]);
    const k = contractId === null ? undefined : replayed.get(contractId);
    const at = str(r[3]);
    const point: HistoryPoint = {
      observedAtMs: Number(r[1]),
      contractId,
      ledgerCreatedAtMicros: k?.createdAtMicros ?? (at === null ? null : parseIsoMicros(at)),
      reserveA: k?.reserveA ?? str(r[4]),
      reserveB: k?.reserveB ?? str(r[5]),
      totalLpSupply: k?.totalLpSupply ?? str(r[6]),
      proven: k !== undefined,
      template: k?.template ?? null,
      blobKey: null,
    };
    const list = out.get(poolId);
    if (list === undefined) out.set(poolId, [point]);
    else list.push(point);
  }
  return out;
}

/** Re-verifies the mirror's contracts and re-runs the history checks. */
export async function runReplay(o: ReplayOptions): Promise<ReplayReport> {
  const now = o.now ?? (() => performance.now());
  const t0 = now();
  const types = await loadAuditTypes(o);
  let mirror: Mirror;
  try {
    mirror = openMirror(o.mirrorPath, { readonly: true });
  } catch (e) {
    throw new AuditError(
      'MIRROR_UNAVAILABLE',
      `"--mirror" expected an existing mirror file, got ${JSON.stringify(o.mirrorPath)}`,
      { cause: e },
    );
  }
  const tSetup = now();
  const replayed = new Map<string, ReplayedContract>();
  const c = new AuditCollector();
  let n = 0;
  let verified = 0;
  let mismatch = 0;
  let unverifiable = 0;
  const every = o.progressEvery ?? 10_000;
  try {
    const range = {
      ...(o.fromMs === undefined ? {} : { fromMs: o.fromMs }),
      ...(o.toMs === undefined ? {} : { toMs: o.toMs }),
    };
    for (const k of iterateContracts(mirror, range)) {
      n++;
      const v = verifyProof(k.contractId, k.blob, types);
      const f = [];
      if (v.decoded === null)
        f.push(
          makeFinding(
            'PROOF_BLOB_MALFORMED',
            k.poolId,
            `stored blob of ${k.contractId.slice(0, 16)}… does not decode: ${v.decodeError ?? ''}`,
            { contractId: k.contractId },
          ),
        );
      else {
        if (v.decoded.embeddedContractId !== k.contractId || v.idStatus === 'mismatch')
          f.push(
            makeFinding(
              'PROOF_CONTRACT_ID_MISMATCH',
              k.poolId,
              `stored contract ${k.contractId.slice(0, 16)}… does not recompute from its blob`,
              { contractId: k.contractId, reasons: v.reasons, embedded: v.decoded.embeddedContractId },
            ),
          );
        else if (v.idStatus === 'could-not-check')
          f.push(
            makeFinding(
              'PROOF_UNVERIFIABLE',
              k.poolId,
              `stored contract ${k.contractId.slice(0, 16)}… could not be verified: ${v.reasons.join('; ')}`,
              { contractId: k.contractId },
            ),
          );
        const tp = findTemplateProfile(o.profile, v.decoded.template);
        if (tp === null)
          f.push(
            makeFinding(
              'PROOF_TEMPLATE_UNEXPECTED',
              k.poolId,
              `stored contract ${k.contractId.slice(0, 16)}… is of template ${v.decoded.template.entityName}`,
              { contractId: k.contractId, got: v.decoded.template },
            ),
          );
        else {
          const ex = extractProvenFields(tp, v.decoded.createArg, v.decoded.fieldLabels);
          if (ex.ok && v.idStatus === 'verified' && v.decoded.embeddedContractId === k.contractId)
            replayed.set(k.contractId, {
              reserveA: ex.value.reserveA,
              reserveB: ex.value.reserveB,
              totalLpSupply: ex.value.totalLpSupply,
              createdAtMicros: v.decoded.createdAtMicros,
              template: `${v.decoded.template.packageId}:${v.decoded.template.packageName}:${v.decoded.template.moduleName}:${v.decoded.template.entityName}`,
            });
          if (!ex.ok)
            f.push(makeFinding('PROOF_UNVERIFIABLE', k.poolId, ex.reason, { contractId: k.contractId }));
          else
            for (const [name, exp, got] of [
              ['reserve_a', ex.value.reserveA, k.reserveA],
              ['reserve_b', ex.value.reserveB, k.reserveB],
              ['total_lp_supply', ex.value.totalLpSupply, k.totalLpSupply],
            ] as const)
              if (!isSameAmount(exp, got))
                f.push(
                  makeFinding(
                    'PROOF_FIELD_MISMATCH',
                    k.poolId,
                    `recorded ${name} ${got} of ${k.contractId.slice(0, 16)}… differs from its blob (${exp})`,
                    { contractId: k.contractId, field: name, expected: exp, got },
                  ),
                );
        }
      }
      const st = c.record('proof', 'replay.contract', k.poolId, f);
      if (st === 'pass') verified++;
      else if (st === 'fail') mismatch++;
      else unverifiable++;
      if (n % every === 0) o.onProgress?.(n, n / Math.max(1e-9, (now() - t0) / 1000));
    }
    const tContracts = now();
    // history over the recorded period, with the values just re-verified (not the stored status)
    const series = loadObservationSeries(mirror, o.fromMs, o.toMs, replayed);
    const tHistoryLoaded = now();
    let observations = 0;
    for (const [poolId, points] of series) {
      observations += points.length;
      checkHistorySeries(c, poolId, points, 0);
    }
    const tLoaded = now();
    const elapsed = now() - t0;
    o.onProgress?.(n, n / Math.max(1e-9, elapsed / 1000));
    const outcome = computeAuditOutcome(c.checks);
    return {
      summary: {
        outcome,
        exitCode: outcome === 'passed' ? 0 : outcome === 'failed' ? 1 : 2,
        mirror: o.mirrorPath,
        from: o.fromMs === undefined ? null : new Date(o.fromMs).toISOString(),
        to: o.toMs === undefined ? null : new Date(o.toMs).toISOString(),
        contracts: n,
        verified,
        mismatch,
        couldNotCheck: unverifiable,
        pools: series.size,
        observations,
        durationMs: Math.round(elapsed),
        contractsPerSecond: Math.round(n / Math.max(1e-9, elapsed / 1000)),
        phasesMs: {
          setup: Math.round(tSetup - t0),
          contracts: Math.round(tContracts - tSetup),
          historyLoad: Math.round(tHistoryLoaded - tContracts),
          historyChecks: Math.round(tLoaded - tHistoryLoaded),
        },
      },
      findings: c.findings,
      checks: c.checks,
    };
  } finally {
    mirror.close();
  }
}
