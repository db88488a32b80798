/**
 * History checks against the local mirror (the issue "History"): ledger_created_at of a pool never
 * goes back; a contract ID never reappears with different contents (nor for another pool);
 * reserves never change without a new contract; the LP-share value never decreases beyond
 * rounding; template changes and vanished pools are reported; a proof the mirror has already seen
 * superseded is stale. The same series check serves `audit` (current proofs appended to the
 * mirror's series, findings reported for the current point only) and `replay` (whole series).
 */
import { isSameAmount } from './decimal-strings.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import {
  computeLpShareSquare,
  isLpShareDecreaseExact,
  isLpShareSquareDecrease,
  LP_SHARE_TOLERANCE,
} from './lp-share.js';

/** One observation of a pool in time order (from the mirror, or the current audit). */
export interface HistoryPoint {
  readonly observedAtMs: number;
  /** the reserve contract of the proof (null: the pool had no proof then) */
  readonly contractId: string | null;
  /** ledger creation time of that contract, microseconds */
  readonly ledgerCreatedAtMicros: bigint | null;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly totalLpSupply: string | null;
  /** true when the reserves come from a verified blob */
  readonly proven: boolean;
  /** "package_id:package_name:Module:Entity", or null when unknown */
  readonly template: string | null;
  /** the base64 blob or its digest when known, to compare contents of a reused ID */
  readonly blobKey: string | null;
}

export interface HistoryOptions {
  readonly lpShareTolerance?: string;
  /** the recorded checks are `<prefix>.time`, `<prefix>.lp-share`, … (default `history`) */
  readonly checkPrefix?: string;
  /** adds to each finding (the followed series names its contracts' offsets) */
  readonly annotate?: (f: Finding) => Finding;
}

/**
 * What the series check carries from one point to the next, besides the first point of every
 * contract ID: the point with the newest ledger time, the last proven point of a new contract, the
 * last known template. It is all an audit needs from a pool's past (with the first point of the
 * current contract ID), so the mirror keeps it per pool instead of re-reading the whole series.
 */
export interface HistoryFold {
  /** the first point reaching the highest ledger creation time so far */
  readonly newest: {
    readonly contractId: string;
    readonly ledgerCreatedAtMicros: bigint;
    readonly observedAtMs: number;
  } | null;
  /** the last proven point (with reserves and LP supply) whose contract ID was new */
  readonly lastProven: {
    readonly contractId: string;
    readonly reserveA: string;
    readonly reserveB: string;
    readonly totalLpSupply: string;
  } | null;
  /** the template of the last point that had one */
  readonly lastTemplate: string | null;
}

export const EMPTY_HISTORY_FOLD: HistoryFold = { newest: null, lastProven: null, lastTemplate: null };

/** The findings of one point, by check. */
export interface PointFindings {
  readonly time: Finding[];
  readonly reuse: Finding[];
  readonly stale: Finding[];
  readonly lp: Finding[];
  readonly template: Finding[];
}

const noFindings = (): PointFindings => ({ time: [], reuse: [], stale: [], lp: [], template: [] });

const shortId = (id: string): string => `${id.slice(0, 16)}…`;

/**
 * One step of the series check: the findings of `p` (into `f` when given) and the fold after it.
 * `prior` is the first earlier point of the pool with the same contract ID (undefined: new ID).
 */
export function stepHistoryFold(
  poolId: string,
  fold: HistoryFold,
  p: HistoryPoint,
  prior: HistoryPoint | undefined,
  f: PointFindings | null,
  tol: string,
): HistoryFold {
  const id = p.contractId;
  if (id === null) return fold;
  const { newest, lastProven, lastTemplate } = fold;
  if (prior !== undefined) {
    const q = prior;
    const reservesDiffer =
      (q.reserveA !== null && p.reserveA !== null && !isSameAmount(q.reserveA, p.reserveA)) ||
      (q.reserveB !== null && p.reserveB !== null && !isSameAmount(q.reserveB, p.reserveB));
    const otherDiffer =
      (q.totalLpSupply !== null &&
        p.totalLpSupply !== null &&
        !isSameAmount(q.totalLpSupply, p.totalLpSupply)) ||
      (q.ledgerCreatedAtMicros !== null &&
        p.ledgerCreatedAtMicros !== null &&
        q.ledgerCreatedAtMicros !== p.ledgerCreatedAtMicros) ||
      (q.template !== null && p.template !== null && q.template !== p.template) ||
      (q.blobKey !== null && p.blobKey !== null && q.blobKey !== p.blobKey);
    if (f !== null && reservesDiffer)
      f.reuse.push(
        makeFinding(
          'HISTORY_RESERVES_CHANGED_WITHOUT_NEW_CONTRACT',
          poolId,
          `contract ${shortId(id)} now shows reserves ${p.reserveA}/${p.reserveB}, earlier ${q.reserveA}/${q.reserveB}`,
          {
            contractId: id,
            expected: { reserveA: q.reserveA, reserveB: q.reserveB },
            got: { reserveA: p.reserveA, reserveB: p.reserveB },
            firstSeenMs: q.observedAtMs,
          },
          { label: p.proven && q.proven ? 'proven' : 'asserted' },
        ),
      );
    else if (f !== null && otherDiffer)
      f.reuse.push(
        makeFinding(
          'HISTORY_CONTRACT_REUSED',
          poolId,
          `contract ${shortId(id)} reappeared with different contents`,
          {
            contractId: id,
            expected: {
              totalLpSupply: q.totalLpSupply,
              ledgerCreatedAtMicros: q.ledgerCreatedAtMicros?.toString() ?? null,
              template: q.template,
            },
            got: {
              totalLpSupply: p.totalLpSupply,
              ledgerCreatedAtMicros: p.ledgerCreatedAtMicros?.toString() ?? null,
              template: p.template,
            },
            firstSeenMs: q.observedAtMs,
          },
        ),
      );
    if (
      f !== null &&
      newest !== null &&
      newest.contractId !== id &&
      q.ledgerCreatedAtMicros !== null &&
      newest.ledgerCreatedAtMicros > q.ledgerCreatedAtMicros
    )
      f.stale.push(
        makeFinding(
          'HISTORY_STALE_PROOF',
          poolId,
          `proof ${shortId(id)} was already superseded by ${shortId(newest.contractId)} (seen at ${new Date(newest.observedAtMs).toISOString()})`,
          {
            contractId: id,
            expected: newest.contractId,
            got: id,
            supersededAtMs: newest.observedAtMs,
          },
        ),
      );
  } else if (
    f !== null &&
    newest !== null &&
    p.ledgerCreatedAtMicros !== null &&
    p.ledgerCreatedAtMicros < newest.ledgerCreatedAtMicros
  )
    f.time.push(
      makeFinding(
        'HISTORY_TIME_REGRESSION',
        poolId,
        `ledger_created_at went back in time for new contract ${shortId(id)}`,
        {
          contractId: id,
          expected: `>= ${newest.ledgerCreatedAtMicros} µs (${shortId(newest.contractId)})`,
          got: p.ledgerCreatedAtMicros.toString(),
        },
      ),
    );
  const nextNewest =
    p.ledgerCreatedAtMicros !== null &&
    (newest === null || p.ledgerCreatedAtMicros > newest.ledgerCreatedAtMicros)
      ? { contractId: id, ledgerCreatedAtMicros: p.ledgerCreatedAtMicros, observedAtMs: p.observedAtMs }
      : newest;
  // LP-share value: compare with the previous proven point of another contract
  let nextProven = lastProven;
  if (p.proven && p.reserveA !== null && p.reserveB !== null && p.totalLpSupply !== null) {
    if (f !== null && prior === undefined && lastProven !== null && lastProven.contractId !== id) {
      const exact = isLpShareDecreaseExact(
        lastProven,
        { reserveA: p.reserveA, reserveB: p.reserveB, totalLpSupply: p.totalLpSupply },
        tol,
      );
      const qBefore =
        exact === false
          ? null
          : computeLpShareSquare(lastProven.reserveA, lastProven.reserveB, lastProven.totalLpSupply);
      const qNow = exact === false ? null : computeLpShareSquare(p.reserveA, p.reserveB, p.totalLpSupply);
      if (qBefore !== null && qNow !== null && isLpShareSquareDecrease(qBefore, qNow, tol)) {
        const before = qBefore.sqrt();
        const now = qNow.sqrt();
        f.lp.push(
          makeFinding(
            'HISTORY_LP_SHARE_VALUE_DECREASED',
            poolId,
            `LP-share value fell from ${before.toSignificantDigits(12)} to ${now.toSignificantDigits(12)}`,
            {
              expected: `>= ${before.toSignificantDigits(20).toString()}`,
              got: now.toSignificantDigits(20).toString(),
              previousContractId: lastProven.contractId,
              contractId: id,
              tolerance: tol,
            },
          ),
        );
      }
    }
    if (prior === undefined)
      nextProven = {
        contractId: id,
        reserveA: p.reserveA,
        reserveB: p.reserveB,
        totalLpSupply: p.totalLpSupply,
      };
  }
  if (p.template !== null && f !== null && lastTemplate !== null && lastTemplate !== p.template)
    f.template.push(
      makeFinding(
        'HISTORY_TEMPLATE_CHANGED',
        poolId,
        `reserve template changed from ${lastTemplate} to ${p.template}`,
        {
          expected: lastTemplate,
          got: p.template,
        },
      ),
    );
  return { newest: nextNewest, lastProven: nextProven, lastTemplate: p.template ?? lastTemplate };
}

function recordPointFindings(
  c: AuditCollector,
  poolId: string,
  f: PointFindings,
  options: HistoryOptions = {},
): void {
  const prefix = options.checkPrefix ?? 'history';
  const out = (list: Finding[]): Finding[] =>
    options.annotate === undefined ? list : list.map(options.annotate);
  c.record('history', `${prefix}.time`, poolId, out(f.time));
  c.record('history', `${prefix}.contract-reuse`, poolId, out(f.reuse));
  c.record('history', `${prefix}.stale`, poolId, out(f.stale));
  c.record('history', `${prefix}.lp-share`, poolId, out(f.lp));
  c.record('history', `${prefix}.template`, poolId, out(f.template));
}

/**
 * Folds a series (oldest first) without reporting: the fold after its last point and the first
 * point of every contract ID (what the mirror keeps per pool, see src/io/store/plan/history-plan.ts).
 */
export function computeHistoryFold(
  points: readonly HistoryPoint[],
  from: HistoryFold = EMPTY_HISTORY_FOLD,
  priorOf: (contractId: string) => HistoryPoint | undefined = () => undefined,
): HistoryFold {
  const seen = new Map<string, HistoryPoint>();
  let fold = from;
  for (const p of points) {
    if (p.contractId === null) continue;
    const prior = seen.get(p.contractId) ?? priorOf(p.contractId);
    fold = stepHistoryFold('', fold, p, prior, null, LP_SHARE_TOLERANCE);
    if (prior === undefined) seen.set(p.contractId, p);
  }
  return fold;
}

/**
 * Checks the series of one pool (oldest first). Findings are produced for points with index ≥
 * `reportFrom` only (earlier points only build up what was seen). Records one check per area
 * item: history.time, history.contract-reuse, history.stale, history.lp-share, history.template.
 */
export function checkHistorySeries(
  c: AuditCollector,
  poolId: string,
  points: readonly HistoryPoint[],
  reportFrom: number,
  options: HistoryOptions = {},
): void {
  const tol = options.lpShareTolerance ?? LP_SHARE_TOLERANCE;
  const f = noFindings();
  const seen = new Map<string, HistoryPoint>();
  let fold = EMPTY_HISTORY_FOLD;
  points.forEach((p, i) => {
    if (p.contractId === null) return;
    const prior = seen.get(p.contractId);
    fold = stepHistoryFold(poolId, fold, p, prior, i >= reportFrom ? f : null, tol);
    if (prior === undefined) seen.set(p.contractId, p);
  });
  recordPointFindings(c, poolId, f, options);
}

/**
 * Checks the current point of a pool against what the mirror kept of its past: the fold and the
 * first earlier point of the current contract ID. Records the same checks, with the same
 * findings, as `checkHistorySeries` over the whole series with the current point last.
 */
export function checkHistoryCurrent(
  c: AuditCollector,
  poolId: string,
  fold: HistoryFold,
  prior: HistoryPoint | undefined,
  current: HistoryPoint,
  options: HistoryOptions = {},
): void {
  const f = noFindings();
  stepHistoryFold(poolId, fold, current, prior, f, options.lpShareTolerance ?? LP_SHARE_TOLERANCE);
  recordPointFindings(c, poolId, f, options);
}

/** A contract as the mirror stores it (for cross-pool reuse of an ID). */
export interface KnownContract {
  readonly contractId: string;
  readonly poolId: string;
}

/**
 * Cross-pool checks against the mirror: a current contract ID the mirror knows for ANOTHER pool
 * is reused; a pool the mirror saw with a proof at its latest observation and that has no proof
 * now has vanished.
 */
export function checkHistoryPools(
  c: AuditCollector,
  current: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, KnownContract>,
  lastSeenPools: ReadonlyMap<string, string>,
): void {
  const reuse: Finding[] = [];
  for (const [poolId, contractId] of current) {
    const k = known.get(contractId);
    if (k !== undefined && k.poolId !== poolId)
      reuse.push(
        makeFinding(
          'HISTORY_CONTRACT_REUSED',
          poolId,
          `contract ${shortId(contractId)} was recorded for pool ${k.poolId}`,
          { contractId, expected: k.poolId, got: poolId },
        ),
      );
  }
  c.record('history', 'history.cross-pool', null, reuse);
  const vanished: Finding[] = [];
  for (const [poolId, lastContract] of lastSeenPools)
    if (!current.has(poolId))
      vanished.push(
        makeFinding(
          'HISTORY_POOL_VANISHED',
          poolId,
          `pool ${poolId} (last contract ${shortId(lastContract)}) has no proof any more`,
          { expected: lastContract, got: null },
        ),
      );
  c.record('history', 'history.vanished', null, vanished);
}
