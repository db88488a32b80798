/**
 * Check `fetch.identifiers` (issue 30 "terminal injection"; docs/threat-model.md "Attacks on the
 * auditor"): an identifier or symbol the exchange publishes — pool id, contract and update ids,
 * token admin / id / symbol / name, template names, market symbols and sources, ticker ids —
 * that holds a control character (C0, DEL, C1) or a bidirectional control (U+202A–U+202E,
 * U+2066–U+2069; src/core/wire/display-text.ts). Such a string can drive the terminal of whoever
 * reads a report (ESC sequences retitle or clear it) or make one id read as another (U+202E
 * reverses what follows). The auditor shows it escaped everywhere; this finding names it, so a
 * run over such an exchange is never a silent pass. A warning, not an error: the characters are
 * suspicious, not a proof that the exchange misstated its reserves.
 */
import { formatDisplayText, formatUnsafeChars, isUnsafeText } from '../wire/display-text.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { AuditSnapshot, Fetched, TokenKey } from './snapshot.js';

interface Named {
  readonly endpoint: string;
  readonly pool: string | null;
  readonly fields: readonly (readonly [string, string | null | undefined])[];
}

const tokenFields = (
  side: string,
  t: TokenKey & { readonly symbol?: string },
): [string, string | undefined][] => [
  [`${side}.admin`, t.admin],
  [`${side}.id`, t.id],
  [`${side}.symbol`, t.symbol],
];

const values = <T>(f: Fetched<readonly T[]>): readonly T[] => (f.ok ? f.value : []);

type Field = readonly [string, string | null | undefined];

/** One `Named` per entry of a list: the entry's identifier fields, and the pool it names (if any). */
function* eachEntry<T>(
  endpoint: string,
  list: readonly T[],
  fieldsOf: (x: T) => readonly Field[],
  poolOf: (x: T) => string | null = () => null,
): Generator<Named> {
  for (const x of list) yield { endpoint, pool: poolOf(x), fields: fieldsOf(x) };
}

interface PoolEntry {
  readonly poolId: string;
  readonly contractId: string;
  readonly tokenA: TokenKey & { readonly symbol?: string };
  readonly tokenB: TokenKey & { readonly symbol?: string };
}

/** The identifiers every pool entry publishes, with the entry's own (`more`) after its contract ID. */
const poolEntryFields = (p: PoolEntry, more: readonly Field[] = []): Field[] => [
  ['pool_id', p.poolId],
  ['contract_id', p.contractId],
  ...more,
  ...tokenFields('token_a', p.tokenA),
  ...tokenFields('token_b', p.tokenB),
];

const poolIdOf = (x: { readonly poolId: string | null }): string | null => x.poolId;

/** Every exchange-supplied identifier of the snapshot, with the endpoint and field it came from. */
function* namedIdentifiers(s: AuditSnapshot): Generator<Named> {
  const proofs = [...values(s.proofs), ...values(s.proofsAfter)];
  yield* eachEntry(
    '/pools/proof',
    proofs,
    (p) =>
      poolEntryFields(p, [
        ['pool_cid', p.poolCid],
        ['update_id', p.updateId],
        ['template.package_id', p.template.packageId],
        ['template.package_name', p.template.packageName],
        ['template.module_name', p.template.moduleName],
        ['template.entity_name', p.template.entityName],
      ]),
    poolIdOf,
  );
  yield* eachEntry(
    '/pools/state',
    values(s.state),
    (p) => poolEntryFields(p, [['symbol', p.symbol]]),
    poolIdOf,
  );
  yield* eachEntry('/pools/info', values(s.poolsInfo), (p) => poolEntryFields(p), poolIdOf);
  yield* eachEntry('/tokens/info', values(s.tokens), (t) => [
    ['admin', t.admin],
    ['id', t.id],
    ['symbol', t.symbol],
    ['name', t.name],
  ]);
  yield* eachEntry('/markets/info', values(s.markets), (m) => [
    ['symbol', m.symbol],
    ['source', m.source],
  ]);
  yield* eachEntry('aggregator pairs', values(s.pairs), (p) => [
    ['ticker_id', p.tickerId],
    ['base', p.base],
    ['target', p.target],
    ['pool_id', p.poolId],
  ]);
  yield* eachEntry('aggregator tickers', values(s.tickers), (t) => [
    ['ticker_id', t.tickerId],
    ['pool_id', t.poolId],
    ['contract_id', t.contractId],
  ]);
  yield* eachEntry('aggregator orderbook', values(s.orderbooks), (b) => [['ticker_id', b.tickerId]]);
  const malformedPoolId = (m: { readonly poolId: string | null }): Field[] => [['pool_id', m.poolId]];
  yield* eachEntry('/pools/proof', s.malformed?.proofs ?? [], malformedPoolId, poolIdOf);
  yield* eachEntry('/pools/state', s.malformed?.state ?? [], malformedPoolId, poolIdOf);
}

/**
 * Checks `fetch.identifiers`: one `IDENTIFIER_CONTROL_CHARACTERS` warning per endpoint, field and
 * value that holds a control or bidirectional-control character (the same value seen again, e.g.
 * in both proof fetches, is named once). The message shows the value escaped; `evidence.got` is the
 * value exactly as published.
 */
export function checkIdentifierText(c: AuditCollector, s: AuditSnapshot): void {
  const found: Finding[] = [];
  const seen = new Set<string>();
  for (const n of namedIdentifiers(s))
    for (const [field, value] of n.fields) {
      if (typeof value !== 'string' || !isUnsafeText(value)) continue;
      const key = JSON.stringify([n.endpoint, field, value]);
      if (seen.has(key)) continue;
      seen.add(key);
      const chars = formatUnsafeChars(value);
      found.push(
        makeFinding(
          'IDENTIFIER_CONTROL_CHARACTERS',
          n.pool,
          `${n.endpoint} ${field} "${formatDisplayText(value)}" holds control or bidirectional-control characters (${chars.join(' ')}): shown escaped; it can drive a terminal or read as another identifier`,
          {
            endpoint: n.endpoint,
            field,
            expected: 'no control or bidirectional-control characters',
            got: value,
            characters: chars,
          },
        ),
      );
    }
  c.record('fetch', 'fetch.identifiers', null, found);
}
