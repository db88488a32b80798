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

/*
 * A row object and its table's columns meet through one spelling rule: column `ts_ms` is key
 * `tsMs`. An INSERT binds each column by name from the row object passed as it is (keys the
 * statement does not name are ignored); a SELECT names each column `AS` its key.
 */
const columnsOf = (columns: string): string[] => columns.split(',').map((c) => c.trim());
const keyOf = (column: string): string => column.replace(/_([a-z])/g, (_m, x: string) => x.toUpperCase());

function insertSql(table: string, columns: string): string {
  const names = columnsOf(columns);
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((c) => `@${keyOf(c)}`).join(', ')})`;
}

/** The SELECT list of `columns` of table alias `t`, each as its key. */
const selectList = (t: string, columns: string): string =>
  columnsOf(columns)
    .map((c) => `${t}.${c} AS ${keyOf(c)}`)
    .join(', ');

const TOKEN_COLUMNS = 'admin, id, name, symbol, price_aggregator_id';
const POOL_COLUMNS =
  'pool_id, ord, token_a_admin, token_a_id, token_b_admin, token_b_id, fee_rate, admin_fee_share, active';
const CONTRACT_COLUMNS =
  'contract_id, pool_id, sequence, previous, id_version, update_id, created_at_micros, archived_by, reserve_a, ' +
  'reserve_b, total_lp_supply, fee_rate, blob';
/** A swap event's columns but its trader's party (the trader id is a column, the party a join). */
const SWAP_COLUMNS =
  'seq, ts_ms, pool_id, sell_admin, sell_id, buy_admin, buy_id, sell_amount, buy_amount, pool_fee, ' +
  'protocol_fee, lp_fee, volume_cc, fee_cc, protocol_fee_cc, lp_fee_cc, base_amount, quote_amount, price_after, ' +
  'execution_seconds';

/** A reserve contract row as read: its µs and sequence numbers, its blob a Buffer. */
type StoredContractRow = Omit<ReserveContractRow, 'sequence' | 'createdAtMicros' | 'blob'> & {
  readonly sequence: number;
  readonly createdAtMicros: number;
  readonly blob: Buffer;
};

const CONTRACT_SQL = `SELECT ${selectList('c', CONTRACT_COLUMNS)} FROM reserve_contracts c`;

/** A reserve contract with its creating and archiving offsets and its pool's order. */
const LEDGER_CONTRACT_SQL =
  `SELECT ${selectList('c', CONTRACT_COLUMNS)}, cu.seq AS createdOffset, au.seq AS archivedOffset, ` +
  'p.ord AS poolOrd FROM reserve_contracts c ' +
  'JOIN ledger_updates cu ON cu.update_id = c.update_id ' +
  'LEFT JOIN ledger_updates au ON au.update_id = c.archived_by ' +
  'JOIN pools p ON p.pool_id = c.pool_id';

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
      insertToken: p(insertSql('tokens', `${TOKEN_COLUMNS}, ord`)),
      listTokens: p(`SELECT ${selectList('t', TOKEN_COLUMNS)} FROM tokens t ORDER BY t.ord`),
      insertPool: p(insertSql('pools', POOL_COLUMNS)),
      setPoolCurrent: p('UPDATE pools SET current_contract_id = ?, active = ? WHERE pool_id = ?'),
      listPools: p(
        `SELECT ${selectList('p', `${POOL_COLUMNS}, current_contract_id`)} FROM pools p ORDER BY p.ord`,
      ),
      insertUpdate: p('INSERT INTO ledger_updates (update_id, seq, kind, record_micros) VALUES (?, ?, ?, ?)'),
      maxUpdateSeq: p('SELECT MAX(seq) AS v FROM ledger_updates'),
      insertContract: p(insertSql('reserve_contracts', CONTRACT_COLUMNS)),
      archiveContract: p(
        'UPDATE reserve_contracts SET archived_by = ? WHERE contract_id = ? AND archived_by IS NULL',
      ),
      getContract: p(`${CONTRACT_SQL} WHERE c.contract_id = ?`),
      listContracts: p(`${CONTRACT_SQL} WHERE c.pool_id = ? ORDER BY c.sequence DESC LIMIT ?`),
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
        'SELECT update_id AS updateId, seq AS offset, record_micros AS recordMicros FROM ledger_updates ' +
          'WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
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
      insertSwap: p(insertSql('swap_events', `${SWAP_COLUMNS}, update_id, transfer_seq, trader_id`)),
      listSwaps: p(
        `SELECT ${selectList('e', SWAP_COLUMNS)}, t.party AS trader FROM swap_events e ` +
          'JOIN traders t ON t.trader_id = e.trader_id ORDER BY e.seq',
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
    return this.s.listTokens!.all() as Token[];
  }

  insertPool(p: Omit<PoolRow, 'currentContractId'>): void {
    this.s.insertPool!.run({ ...p, active: p.active ? 1 : 0 });
  }
  setPoolCurrent(poolId: string, contractId: string, active: boolean): void {
    this.s.setPoolCurrent!.run(contractId, active ? 1 : 0, poolId);
  }
  listPools(): PoolRow[] {
    return (this.s.listPools!.all() as (Omit<PoolRow, 'active'> & { active: number })[]).map((r) => ({
      ...r,
      active: r.active === 1,
    }));
  }

  insertLedgerUpdate(updateId: string, seq: number, kind: LedgerUpdateKind, recordMicros: bigint): void {
    this.s.insertUpdate!.run(updateId, seq, kind, recordMicros);
  }
  maxLedgerUpdateSeq(): number {
    return ((this.s.maxUpdateSeq!.get() as { v: number | null }).v ?? 0) as number;
  }

  insertReserveContract(c: Omit<ReserveContractRow, 'archivedBy'>): void {
    this.s.insertContract!.run({ ...c, archivedBy: null });
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
    const r = this.s.getContract!.get(contractId) as StoredContractRow | undefined;
    return r === undefined ? null : toContractRow(r);
  }
  /** Newest first. */
  listReserveContracts(poolId: string, limit: number): ReserveContractRow[] {
    return (this.s.listContracts!.all(poolId, limit) as StoredContractRow[]).map(toContractRow);
  }
  /** The reserve contract with its offsets, or null. */
  getLedgerContract(contractId: string): LedgerContractRow | null {
    const r = this.s.getLedgerContract!.get(contractId) as StoredLedgerContractRow | undefined;
    return r === undefined ? null : toContractRow(r);
  }
  /** The reserve contracts an update created or archived (a contract can appear in both roles). */
  listUpdateContracts(updateId: string): LedgerContractRow[] {
    return (this.s.listUpdateContracts!.all(updateId, updateId) as StoredLedgerContractRow[]).map(
      toContractRow,
    );
  }
  /** The pool's newest reserve contract created at or before `offset` (archived or not), or null. */
  getPoolContractAt(poolId: string, offset: number): LedgerContractRow | null {
    const r = this.s.poolContractAt!.get(poolId, offset) as StoredLedgerContractRow | undefined;
    return r === undefined ? null : toContractRow(r);
  }
  /** At most `limit` ledger updates with `after` < offset ≤ `upTo`, oldest first. */
  listLedgerUpdates(after: number, upTo: number, limit: number): LedgerUpdateRow[] {
    const rows = this.s.listUpdates!.all(after, upTo, limit) as {
      updateId: string;
      offset: number;
      recordMicros: number;
    }[];
    return rows.map((r) => ({ ...r, recordMicros: BigInt(r.recordMicros) }));
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
    type SwapRow = Omit<SwapEvent, 'sell' | 'buy'> &
      Record<'sellAdmin' | 'sellId' | 'buyAdmin' | 'buyId', string>;
    return (this.s.listSwaps!.all() as SwapRow[]).map(({ sellAdmin, sellId, buyAdmin, buyId, ...e }) => ({
      ...e,
      sell: { admin: sellAdmin, id: sellId },
      buy: { admin: buyAdmin, id: buyId },
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

type StoredLedgerContractRow = StoredContractRow & Omit<LedgerContractRow, keyof ReserveContractRow>;

/** The row as handed out: µs and sequence as bigint, the blob a Uint8Array over the Buffer's bytes. */
function toContractRow<R extends StoredContractRow>(
  r: R,
): Omit<R, 'sequence' | 'createdAtMicros' | 'blob'> & ReserveContractRow {
  const { blob } = r;
  return {
    ...r,
    sequence: BigInt(r.sequence),
    createdAtMicros: BigInt(r.createdAtMicros),
    blob: new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength),
  };
}
