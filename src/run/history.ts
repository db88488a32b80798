/**
 * Pool time series from the mirror for `history` and `report` (the issue "history", "report"):
 * per observation the time, reserve contract, reserves (the contract's stored values — read from
 * the verified blob when the mirror has them), price, TVL, LP-share value and verification status.
 */

import { existsSync } from 'node:fs';
import { computeLpShareValue } from '../core/audit/index.js';
import { AuditError } from '../errors/audit.js';
import { isReserveAuditError } from '../errors/base.js';
import { InstallError } from '../errors/install.js';
import { redactUrl } from '../io/http/redact-url.js';
import { isPostgresTarget, type MirrorStore, openMirrorStore } from '../io/store/index.js';

export interface PoolHistoryRow {
  /** ISO time of the observation */
  readonly time: string;
  readonly contractId: string | null;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly price: string | null;
  readonly tvlCc: string | null;
  readonly totalLpSupply: string | null;
  /** √(a·b)/L to 20 significant digits */
  readonly lpShareValue: string | null;
  readonly verification: string;
  readonly symbol: string | null;
}

/** Opens a mirror (a file path or a postgres:// URL) read-only or throws MIRROR_UNAVAILABLE. */
export async function openMirrorForReading(target: string): Promise<MirrorStore> {
  try {
    return await openMirrorStore(target, { readonly: true });
  } catch (e) {
    // a missing driver is said as such ("npm install better-sqlite3"), not as a missing mirror
    if (e instanceof InstallError) throw e;
    throw new AuditError('MIRROR_UNAVAILABLE', formatMirrorUnavailable(target, e), { cause: e });
  }
}

/**
 * Why a mirror could not be opened, for MIRROR_UNAVAILABLE: what was expected — a mirror file that
 * exists, a file that is a SQLite mirror, a PostgreSQL server that answers — the target (a URL
 * without its password) and the cause's own words (`password authentication failed for user "x"`,
 * a newer schema, `file is not a database`) instead of a guess.
 */
export function formatMirrorUnavailable(target: string, e: unknown): string {
  const cause = isReserveAuditError(e) ? e.shortMessage : e instanceof Error ? e.message : String(e);
  const got = formatMirrorTarget(target);
  if (isPostgresTarget(target)) {
    const unreachable = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|timeout/i.test(cause);
    return unreachable
      ? `"--mirror" expected a PostgreSQL server that answers, got ${got}: could not connect (${cause})`
      : `"--mirror" expected a PostgreSQL mirror database, got ${got}: ${cause}`;
  }
  if (!existsSync(target)) return `"--mirror" expected an existing mirror file, got ${got}: no such file`;
  if (/file is not a database|not a database|file is encrypted/i.test(cause))
    return `"--mirror" expected a mirror (a SQLite database written by reserve-audit), got ${got}: not a SQLite database`;
  return `"--mirror" expected a mirror file that can be opened, got ${got}: ${cause}`;
}

/** A mirror target as messages show it: JSON-quoted, a URL without its password. */
function formatMirrorTarget(target: string): string {
  return JSON.stringify(isPostgresTarget(target) ? redactUrl(target) : target);
}

/** Every pool's rows (oldest first), optionally one pool only. */
export async function loadPoolSeries(
  mirror: MirrorStore,
  poolId?: string,
): Promise<Map<string, PoolHistoryRow[]>> {
  const obs = await mirror.readObservationsForHistoryChecks({
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...(poolId === undefined ? {} : { poolIds: [poolId] }),
  });
  const out = new Map<string, PoolHistoryRow[]>();
  for (const [id, list] of obs) {
    if (list.length === 0) continue;
    out.set(
      id,
      list.map((o) => {
        const a = o.contractReserveA ?? o.reserveA;
        const b = o.contractReserveB ?? o.reserveB;
        const l = o.contractTotalLpSupply ?? o.totalLpSupply;
        const v = a === null || b === null || l === null ? null : computeLpShareValue(a, b, l);
        return {
          time: new Date(o.observedAtMs).toISOString(),
          contractId: o.contractId,
          reserveA: a,
          reserveB: b,
          price: o.price,
          tvlCc: o.tvlCc,
          totalLpSupply: l,
          lpShareValue: v === null ? null : v.toSignificantDigits(20).toString(),
          verification: o.contractId === null ? 'no proof' : (o.verificationStatus ?? 'unchecked'),
          symbol: o.symbol,
        };
      }),
    );
  }
  return out;
}
