/**
 * What an audit covered, and what it did not (the issue "say what a pass did not check"): a pass
 * proves only what was checked. Without --probe-quotes a tampered quote passes; without a mirror
 * (or with an empty one) a frozen, genuine but old state passes; the Daml types come from the
 * bundled type file unless --types/--dar are given. The report shows these lines next to the
 * verdict (text, JSON `summary.coverage`, JUnit properties, HTML), so a pass is never read as more
 * than it is. With a mirror, it also says whether the history saw every reserve contract (the
 * followed ledger, `mirror follow`) or sampled snapshots only. Pure: the caller says what was
 * requested and found.
 */
import type { FollowedStreamCoverage } from './followed-history-checks.js';

/** What one audit requested and found (the input of `computeAuditCoverage`). */
export interface CoverageInput {
  /** --probe-quotes given */
  readonly probeQuotes: boolean;
  /** probe quotes obtained (null: not requested or the quote section failed) */
  readonly probeCount: number | null;
  /** of those, the ones whose check was decided (passed or failed); default: all of them */
  readonly probesRecomputed?: number;
  /** null: no mirror given; else the snapshots the mirror held before this audit */
  readonly earlierSnapshots: number | null;
  /** --types files and --dar archives given (both empty: the bundled type file) */
  readonly typeFiles: number;
  readonly dars: number;
  /**
   * the followed ledger history the audit judged, per followed stream (empty: the mirror follows
   * none); absent: no mirror, no line
   */
  readonly followed?: readonly FollowedStreamCoverage[];
}

export interface AuditCoverage {
  readonly quotes: {
    /** quotes were probed and recomputed (a tampered quote would fail) */
    readonly checked: boolean;
    readonly probes: number;
    readonly text: string;
  };
  readonly history: {
    /** staleness and history were checked against at least one earlier snapshot */
    readonly checked: boolean;
    readonly mirror: boolean;
    readonly earlierSnapshots: number;
    readonly text: string;
  };
  readonly types: {
    readonly source: 'bundled' | 'given';
    readonly typeFiles: number;
    readonly dars: number;
    readonly text: string;
  };
  /** with a mirror: whether the history saw every reserve contract of the followed ledger or samples only */
  readonly followed?: {
    /** at least one followed contract of an audited pool was judged */
    readonly checked: boolean;
    /** followed contracts of the audited pools, over every stream */
    readonly contracts: number;
    readonly streams: readonly FollowedStreamCoverage[];
    readonly text: string;
  };
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The coverage of one audit run. */
export function computeAuditCoverage(x: CoverageInput): AuditCoverage {
  const probes = x.probeCount ?? 0;
  const quotes = !x.probeQuotes
    ? { checked: false, probes: 0, text: 'quotes: not probed (--probe-quotes), a tampered quote would pass' }
    : probes === 0
      ? { checked: false, probes: 0, text: 'quotes: probing requested, no quote obtained' }
      : (x.probesRecomputed ?? probes) >= probes
        ? { checked: true, probes, text: `quotes: ${plural(probes, 'probe quote')} recomputed` }
        : {
            checked: true,
            probes,
            text: `quotes: ${x.probesRecomputed ?? 0} of ${plural(probes, 'probe quote')} recomputed, ${probes - (x.probesRecomputed ?? 0)} could not be checked`,
          };
  const earlier = x.earlierSnapshots ?? 0;
  const history =
    x.earlierSnapshots === null
      ? {
          checked: false,
          mirror: false,
          earlierSnapshots: 0,
          text: 'history: no mirror, staleness not checked (a frozen, genuine but old state would pass)',
        }
      : earlier === 0
        ? {
            checked: false,
            mirror: true,
            earlierSnapshots: 0,
            text: 'history: first snapshot in the mirror, staleness not checked yet',
          }
        : {
            checked: true,
            mirror: true,
            earlierSnapshots: earlier,
            text: `history: ${plural(earlier, 'earlier snapshot')}`,
          };
  const given = x.typeFiles + x.dars > 0;
  const parts = [
    ...(x.typeFiles > 0 ? [plural(x.typeFiles, 'type file')] : []),
    ...(x.dars > 0 ? [plural(x.dars, 'DAR')] : []),
  ];
  const types = {
    source: given ? ('given' as const) : ('bundled' as const),
    typeFiles: x.typeFiles,
    dars: x.dars,
    text: given
      ? `types: ${parts.join(' + ')} given`
      : "types: bundled type file (the reference server's templates; use --types/--dar for another exchange)",
  };
  return {
    quotes,
    history,
    types,
    ...(x.followed === undefined ? {} : { followed: computeFollowedCoverage(x.followed) }),
  };
}

function computeFollowedCoverage(
  streams: readonly FollowedStreamCoverage[],
): NonNullable<AuditCoverage['followed']> {
  const contracts = streams.reduce((n, s) => n + s.contracts, 0);
  const text =
    streams.length === 0
      ? 'followed ledger: none, the history is sampled snapshots (mirror follow records every reserve contract)'
      : `followed ledger: ${streams
          .map(
            (s) =>
              `${plural(s.contracts, 'contract')} of ${plural(s.pools, 'pool')}, every reserve contract up to offset ${s.throughOffset} (${s.newContracts} new to this audit; ${s.party} at ${s.participant})`,
          )
          .join('; ')}`;
  return { checked: contracts > 0, contracts, streams, text };
}

/** The coverage as lines, in report order. */
export function formatCoverageLines(c: AuditCoverage): string[] {
  return [
    c.quotes.text,
    c.history.text,
    ...(c.followed === undefined ? [] : [c.followed.text]),
    c.types.text,
  ];
}
