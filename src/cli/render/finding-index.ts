/**
 * The findings of a report indexed once, so every renderer (text, JUnit, HTML) is linear in the
 * number of findings and checks (issue 30 "linear reports": filtering every finding for every
 * check made 40,000 malformed entries take minutes). Two views:
 *
 * - by pool: the findings about each pool, in report order (`null` = exchange-wide);
 * - by check: the findings a check raised. A check's `codes` list one code per finding it raised
 *   (src/core/audit/finding.ts `AuditCollector`), and checks and findings are recorded in the same
 *   order, so the k-th check naming a code for an area and pool gets the k-th finding of that code
 *   for that area and pool. Each finding is shown under exactly one check, however many checks share
 *   a pool (a thousand malformed entries without a readable pool id are a thousand checks of pool
 *   `null`, each with its own finding, not each with all thousand).
 */
import type { CheckOutcome, Finding } from '../../core/audit/index.js';

export interface FindingIndex {
  /** the findings about `pool` (null: exchange-wide), in report order */
  byPool(pool: string | null): readonly Finding[];
  /** the pools (and null) that have findings, in order of their first finding */
  pools(): readonly (string | null)[];
  /** the findings `check` raised, in report order (each finding is handed to one check only) */
  byCheck(check: CheckOutcome): readonly Finding[];
}

// area and code contain no space; the pool comes last, marked so null and "" differ
const checkKey = (area: string, code: string, pool: string | null): string =>
  `${area} ${code} ${pool === null ? '-' : `+${pool}`}`;

/** Indexes `findings` for rendering `checks`; the checks are consumed in the order `byCheck` is called. */
export function buildFindingIndex(findings: readonly Finding[]): FindingIndex {
  const pools = new Map<string | null, Finding[]>();
  const queues = new Map<string, { readonly items: { i: number; f: Finding }[]; next: number }>();
  findings.forEach((f, i) => {
    const list = pools.get(f.pool);
    if (list === undefined) pools.set(f.pool, [f]);
    else list.push(f);
    const k = checkKey(f.area, f.code, f.pool);
    const q = queues.get(k);
    if (q === undefined) queues.set(k, { items: [{ i, f }], next: 0 });
    else q.items.push({ i, f });
  });
  return {
    byPool: (pool) => pools.get(pool) ?? [],
    pools: () => [...pools.keys()],
    byCheck(check) {
      const taken: { i: number; f: Finding }[] = [];
      for (const code of check.codes) {
        const q = queues.get(checkKey(check.area, code, check.pool));
        if (q === undefined || q.next >= q.items.length) continue;
        taken.push(q.items[q.next]!);
        q.next++;
      }
      if (taken.length > 1) taken.sort((a, b) => a.i - b.i);
      return taken.map((t) => t.f);
    },
  };
}

/** Checks grouped by pool (null: exchange-wide), in report order. */
export function buildChecksByPool(
  checks: readonly CheckOutcome[],
): ReadonlyMap<string | null, CheckOutcome[]> {
  const out = new Map<string | null, CheckOutcome[]>();
  for (const c of checks) {
    const list = out.get(c.pool);
    if (list === undefined) out.set(c.pool, [c]);
    else list.push(c);
  }
  return out;
}
