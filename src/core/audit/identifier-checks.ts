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

/** Every exchange-supplied identifier of the snapshot, with the endpoint and field it came from. */
function* namedIdentifiers(s: AuditSnapshot): Generator<Named> {
  for (const [endpoint, list] of [
    ['/pools/proof', values(s.proofs)],
    ['/pools/proof', values(s.proofsAfter)],
  ] as const)
    for (const p of list)
      yield {
        endpoint,
        pool: p.poolId,
        fields: [
          ['pool_id', p.poolId],
          ['pool_cid', p.poolCid],
          ['contract_id', p.contractId],
          ['update_id', p.updateId],
          ['template.package_id', p.template.packageId],
          ['template.package_name', p.template.packageName],
          ['template.module_name', p.template.moduleName],
          ['template.entity_name', p.template.entityName],
          ...tokenFields('token_a', p.tokenA),
          ...tokenFields('token_b', p.tokenB),
        ],
      };
  for (const p of values(s.state))
    yield {
      endpoint: '/pools/state',
      pool: p.poolId,
      fields: [
        ['pool_id', p.poolId],
        ['contract_id', p.contractId],
        ['symbol', p.symbol],
        ...tokenFields('token_a', p.tokenA),
        ...tokenFields('token_b', p.tokenB),
      ],
    };
  for (const p of values(s.poolsInfo))
    yield {
      endpoint: '/pools/info',
      pool: p.poolId,
      fields: [
        ['pool_id', p.poolId],
        ['contract_id', p.contractId],
        ...tokenFields('token_a', p.tokenA),
        ...tokenFields('token_b', p.tokenB),
      ],
    };
  for (const t of values(s.tokens))
    yield {
      endpoint: '/tokens/info',
      pool: null,
      fields: [
        ['admin', t.admin],
        ['id', t.id],
        ['symbol', t.symbol],
        ['name', t.name],
      ],
    };
  for (const m of values(s.markets))
    yield {
      endpoint: '/markets/info',
      pool: null,
      fields: [
        ['symbol', m.symbol],
        ['source', m.source],
      ],
    };
  for (const p of values(s.pairs))
    yield {
      endpoint: 'aggregator pairs',
      pool: null,
      fields: [
        ['ticker_id', p.tickerId],
        ['base', p.base],
        ['target', p.target],
        ['pool_id', p.poolId],
      ],
    };
  for (const t of values(s.tickers))
    yield {
      endpoint: 'aggregator tickers',
      pool: null,
      fields: [
        ['ticker_id', t.tickerId],
        ['pool_id', t.poolId],
        ['contract_id', t.contractId],
      ],
    };
  for (const b of values(s.orderbooks))
    yield { endpoint: 'aggregator orderbook', pool: null, fields: [['ticker_id', b.tickerId]] };
  for (const [endpoint, list] of [
    ['/pools/proof', s.malformed?.proofs ?? []],
    ['/pools/state', s.malformed?.state ?? []],
  ] as const)
    for (const m of list) yield { endpoint, pool: m.poolId, fields: [['pool_id', m.poolId]] };
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
