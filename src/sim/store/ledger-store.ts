/**
 * Typed reads and writes of the ledger database (schema in ./migrations.ts). No business logic:
 * the simulator (src/sim/ledger.ts) decides what to write and wraps each ledger change
 * in one transaction (`store.transaction`). Amounts stay decimal strings; µs times are read as
 * JS integers (safe until the year 2255) and handed out as bigint.
 */
import type { Statement } from 'better-sqlite3';
import type { SwapEvent, Token } from '../../core/amm/types.js';
import { ServerError } from '../../errors/server.js';
import type { ServerDb } from './connection.js';

export type LedgerUpdateKind = 'genesis' | 'swap' | 'liquidity_add' | 'liquidity_remove' | 'retire';

export interface PoolRow {
  readonly poolId: string;
  readonly ord: number;
  readonly tokenAAdmin: string;
  readonly tokenAId: string;
  readonly tokenBAdmin: string;
  readonly tokenBId: string;
  readonly feeRate: string;
  readonly adminFeeShare: string;
  readonly active: boolean;
  readonly currentContractId: string | null;
}

export interface ReserveContractRow {
  readonly contractId: string;
  readonly poolId: string;
  readonly sequence: bigint;
  readonly previous: string | null;
  readonly idVersion: 'v10' | 'v11' | 'v12';
  readonly updateId: string;
  readonly createdAtMicros: bigint;
  readonly archivedBy: string | null;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly feeRate: string;
  readonly blob: Uint8Array;
}

/** A reserve contract with the offsets of the updates that created and archived it (the Ledger API). */
export interface LedgerContractRow extends ReserveContractRow {
  readonly createdOffset: number;
  readonly archivedOffset: number | null;
  /** the pool's position in the exchange's pool order */
  readonly poolOrd: number;
}

/** One ledger update: its offset (`seq`) and record time. */
export interface LedgerUpdateRow {
  readonly updateId: string;
  readonly offset: number;
  readonly recordMicros: bigint;
}

export interface TransferRow {
  readonly tsMs: number;
  readonly sender: string;
  readonly instrumentAdmin: string;
  readonly instrumentId: string;
  readonly amount: string;
  readonly memo: string;
  readonly status: 'executed' | 'refunded';
  readonly reason: string | null;
  readonly outAdmin: string;
  readonly outId: string;
  readonly outAmount: string;
  readonly updateId: string | null;
}

export interface LiquidityEventRow {
  readonly tsMs: number;
  readonly updateId: string;
  readonly poolId: string;
  readonly provider: string;
  readonly kind: 'add' | 'remove';
  readonly amountA: string;
  readonly amountB: string;
  readonly lpAmount: string;
}

type Row = Record<string, unknown>;

/** A reserve contract with its creating and archiving offsets and its pool's order. */
const LEDGER_CONTRACT_SQL =
  'SELECT c.*, cu.seq AS created_seq, au.seq AS archived_seq, p.ord AS pool_ord FROM reserve_contracts c ' +
  'JOIN ledger_updates cu ON cu.update_id = c.update_id ' +
  'LEFT JOIN ledger_updates au ON au.update_id = c.archived_by ' +
  'JOIN pools p ON p.pool_id = c.pool_id';

/**
 * The INSERT of `columns` into `table`, each bound by name from its camelCase spelling
 * (`ts_ms` from `@tsMs`): a row object is passed as it is (keys the statement does not name are ignored).
 */
function insertSql(table: string, columns: string): string {
  const names = columns.split(',').map((c) => c.trim());
  const params = names.map((c) => `@${c.replace(/_([a-z])/g, (_m, x: string) => x.toUpperCase())}`);
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${params.join(', ')})`;
}

/** Prepared statements over one open ledger database. */
export class LedgerStore {
  private readonly s: Record<string, Statement>;

  constructor(readonly db: ServerDb) {
    const p = (sql: string): Statement => db.prepare(sql);
    this.s = {
      getMeta: p('SELECT value FROM meta WHERE key = ?'),
      setMeta: p(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      insertToken: p(insertSql('tokens', 'admin, id, name, symbol, price_aggregator_id, ord')),
      listTokens: p('SELECT * FROM tokens ORDER BY ord'),
      insertPool: p(
        insertSql(
          'pools',
          'pool_id, ord, token_a_admin, token_a_id, token_b_admin, token_b_id, fee_rate, admin_fee_share, active',
        ),
      ),
      setPoolCurrent: p('UPDATE pools SET current_contract_id = ?, active = ? WHERE pool_id = ?'),
      listPools: p('SELECT * FROM pools ORDER BY ord'),
      insertUpdate: p('INSERT INTO ledger_updates (update_id, seq, kind, record_micros) VALUES (?, ?, ?, ?)'),
      maxUpdateSeq: p('SELECT MAX(seq) AS v FROM ledger_updates'),
      insertContract: p(
        insertSql(
          'reserve_contracts',
          'contract_id, pool_id, sequence, previous, id_version, update_id, created_at_micros, reserve_a, ' +
            'reserve_b, total_lp_supply, fee_rate, blob',
        ),
      ),
      archiveContract: p(
        'UPDATE reserve_contracts SET archived_by = ? WHERE contract_id = ? AND archived_by IS NULL',
      ),
      getContract: p('SELECT * FROM reserve_contracts WHERE contract_id = ?'),
      listContracts: p('SELECT * FROM reserve_contracts WHERE pool_id = ? ORDER BY sequence DESC LIMIT ?'),
      countContracts: p('SELECT COUNT(*) AS n FROM reserve_contracts'),
      getLedgerContract: p(`${LEDGER_CONTRACT_SQL} WHERE c.contract_id = ?`),
      listUpdateContracts: p(
        `${LEDGER_CONTRACT_SQL} WHERE c.update_id = ? UNION ALL ${LEDGER_CONTRACT_SQL} WHERE c.archived_by = ?`,
      ),
      // the pool's newest contract created at or before the offset (sequence grows with the offset)
      poolContractAt: p(
        `${LEDGER_CONTRACT_SQL} WHERE c.pool_id = ? AND cu.seq <= ? ORDER BY c.sequence DESC LIMIT 1`,
      ),
      listUpdates: p(
        'SELECT update_id, seq, record_micros FROM ledger_updates WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
      ),
      getTrader: p('SELECT trader_id FROM traders WHERE party = ?'),
      insertTrader: p('INSERT INTO traders (party) VALUES (?)'),
      insertTransfer: p(
        insertSql(
          'transfers',
          'ts_ms, sender, instrument_admin, instrument_id, amount, memo, status, reason, out_admin, out_id, ' +
            'out_amount, update_id',
        ),
      ),
      insertSwap: p(
        insertSql(
          'swap_events',
          'seq, ts_ms, update_id, transfer_seq, pool_id, trader_id, sell_admin, sell_id, buy_admin, buy_id, ' +
            'sell_amount, buy_amount, pool_fee, protocol_fee, lp_fee, volume_cc, fee_cc, protocol_fee_cc, ' +
            'lp_fee_cc, base_amount, quote_amount, price_after, execution_seconds',
        ),
      ),
      listSwaps: p(
        `SELECT e.*, t.party AS trader FROM swap_events e JOIN traders t ON t.trader_id = e.trader_id ORDER BY e.seq`,
      ),
      maxSwapSeq: p('SELECT MAX(seq) AS v FROM swap_events'),
      insertLiquidity: p(
        insertSql(
          'liquidity_events',
          'ts_ms, update_id, pool_id, provider, kind, amount_a, amount_b, lp_amount',
        ),
      ),
      getPosition: p('SELECT amount FROM lp_positions WHERE pool_id = ? AND provider = ?'),
      setPosition: p(
        'INSERT INTO lp_positions (pool_id, provider, amount) VALUES (?, ?, ?) ' +
          'ON CONFLICT (pool_id, provider) DO UPDATE SET amount = excluded.amount',
      ),
    };
  }

  /** Runs `fn` in one SQLite transaction (rolled back if it throws). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  getMeta(key: string): string | null {
    const r = this.s.getMeta!.get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }
  setMeta(key: string, value: string): void {
    this.s.setMeta!.run(key, value);
  }

  insertToken(t: Token, ord: number): void {
    this.s.insertToken!.run({ ...t, ord });
  }
  listTokens(): Token[] {
    return (this.s.listTokens!.all() as Row[]).map((r) => ({
      admin: r.admin as string,
      id: r.id as string,
      name: r.name as string,
      symbol: r.symbol as string,
      priceAggregatorId: (r.price_aggregator_id as string | null) ?? null,
    }));
  }

  insertPool(p: Omit<PoolRow, 'currentContractId'>): void {
    this.s.insertPool!.run({ ...p, active: p.active ? 1 : 0 });
  }
  setPoolCurrent(poolId: string, contractId: string, active: boolean): void {
    this.s.setPoolCurrent!.run(contractId, active ? 1 : 0, poolId);
  }
  listPools(): PoolRow[] {
    return (this.s.listPools!.all() as Row[]).map((r) => ({
      poolId: r.pool_id as string,
      ord: r.ord as number,
      tokenAAdmin: r.token_a_admin as string,
      tokenAId: r.token_a_id as string,
      tokenBAdmin: r.token_b_admin as string,
      tokenBId: r.token_b_id as string,
      feeRate: r.fee_rate as string,
      adminFeeShare: r.admin_fee_share as string,
      active: r.active === 1,
      currentContractId: (r.current_contract_id as string | null) ?? null,
    }));
  }

  insertLedgerUpdate(updateId: string, seq: number, kind: LedgerUpdateKind, recordMicros: bigint): void {
    this.s.insertUpdate!.run(updateId, seq, kind, recordMicros);
  }
  maxLedgerUpdateSeq(): number {
    return ((this.s.maxUpdateSeq!.get() as { v: number | null }).v ?? 0) as number;
  }

  insertReserveContract(c: Omit<ReserveContractRow, 'archivedBy'>): void {
    this.s.insertContract!.run(c);
  }
  archiveReserveContract(contractId: string, updateId: string): void {
    const r = this.s.archiveContract!.run(updateId, contractId);
    if (r.changes !== 1) {
      throw new ServerError(
        'DB_CORRUPT',
        `"contractId" expected an active reserve contract, got ${contractId}`,
      );
    }
  }
  getReserveContract(contractId: string): ReserveContractRow | null {
    const r = this.s.getContract!.get(contractId) as Row | undefined;
    return r === undefined ? null : toContractRow(r);
  }
  /** Newest first. */
  listReserveContracts(poolId: string, limit: number): ReserveContractRow[] {
    return (this.s.listContracts!.all(poolId, limit) as Row[]).map(toContractRow);
  }
  /** The reserve contract with its offsets, or null. */
  getLedgerContract(contractId: string): LedgerContractRow | null {
    const r = this.s.getLedgerContract!.get(contractId) as Row | undefined;
    return r === undefined ? null : toLedgerContractRow(r);
  }
  /** The reserve contracts an update created or archived (a contract can appear in both roles). */
  listUpdateContracts(updateId: string): LedgerContractRow[] {
    return (this.s.listUpdateContracts!.all(updateId, updateId) as Row[]).map(toLedgerContractRow);
  }
  /** The pool's newest reserve contract created at or before `offset` (archived or not), or null. */
  getPoolContractAt(poolId: string, offset: number): LedgerContractRow | null {
    const r = this.s.poolContractAt!.get(poolId, offset) as Row | undefined;
    return r === undefined ? null : toLedgerContractRow(r);
  }
  /** At most `limit` ledger updates with `after` < offset ≤ `upTo`, oldest first. */
  listLedgerUpdates(after: number, upTo: number, limit: number): LedgerUpdateRow[] {
    return (this.s.listUpdates!.all(after, upTo, limit) as Row[]).map((r) => ({
      updateId: r.update_id as string,
      offset: r.seq as number,
      recordMicros: BigInt(r.record_micros as number),
    }));
  }
  countReserveContracts(): number {
    return (this.s.countContracts!.get() as { n: number }).n;
  }

  /** The trader id of `party`, inserting it on first sight. */
  traderId(party: string): number {
    const r = this.s.getTrader!.get(party) as { trader_id: number } | undefined;
    if (r !== undefined) return r.trader_id;
    return Number(this.s.insertTrader!.run(party).lastInsertRowid);
  }

  insertTransfer(t: TransferRow): number {
    return Number(this.s.insertTransfer!.run(t).lastInsertRowid);
  }

  insertSwapEvent(e: SwapEvent, updateId: string, transferSeq: number | null): void {
    this.s.insertSwap!.run({
      ...e,
      updateId,
      transferSeq,
      traderId: this.traderId(e.trader),
      sellAdmin: e.sell.admin,
      sellId: e.sell.id,
      buyAdmin: e.buy.admin,
      buyId: e.buy.id,
    });
  }
  /** Every swap event, oldest first. */
  listSwapEvents(): SwapEvent[] {
    return (this.s.listSwaps!.all() as Row[]).map((r) => ({
      seq: r.seq as number,
      tsMs: r.ts_ms as number,
      poolId: r.pool_id as string,
      trader: r.trader as string,
      sell: { admin: r.sell_admin as string, id: r.sell_id as string },
      buy: { admin: r.buy_admin as string, id: r.buy_id as string },
      sellAmount: r.sell_amount as string,
      buyAmount: r.buy_amount as string,
      poolFee: r.pool_fee as string,
      protocolFee: r.protocol_fee as string,
      lpFee: r.lp_fee as string,
      volumeCc: r.volume_cc as string,
      feeCc: r.fee_cc as string,
      protocolFeeCc: r.protocol_fee_cc as string,
      lpFeeCc: r.lp_fee_cc as string,
      baseAmount: r.base_amount as string,
      quoteAmount: r.quote_amount as string,
      priceAfter: r.price_after as string,
      executionSeconds: r.execution_seconds as string,
    }));
  }

  insertLiquidityEvent(e: LiquidityEventRow): void {
    this.s.insertLiquidity!.run(e);
  }
  getLpPosition(poolId: string, provider: string): string | null {
    const r = this.s.getPosition!.get(poolId, provider) as { amount: string } | undefined;
    return r?.amount ?? null;
  }
  setLpPosition(poolId: string, provider: string, amount: string): void {
    this.s.setPosition!.run(poolId, provider, amount);
  }
}

function toContractRow(r: Row): ReserveContractRow {
  const blob = r.blob as Buffer;
  return {
    contractId: r.contract_id as string,
    poolId: r.pool_id as string,
    sequence: BigInt(r.sequence as number),
    previous: (r.previous as string | null) ?? null,
    idVersion: r.id_version as 'v10' | 'v11' | 'v12',
    updateId: r.update_id as string,
    createdAtMicros: BigInt(r.created_at_micros as number),
    archivedBy: (r.archived_by as string | null) ?? null,
    reserveA: r.reserve_a as string,
    reserveB: r.reserve_b as string,
    totalLpSupply: r.total_lp_supply as string,
    feeRate: r.fee_rate as string,
    blob: new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength),
  };
}

function toLedgerContractRow(r: Row): LedgerContractRow {
  return {
    ...toContractRow(r),
    createdOffset: r.created_seq as number,
    archivedOffset: (r.archived_seq as number | null) ?? null,
    poolOrd: r.pool_ord as number,
  };
}
