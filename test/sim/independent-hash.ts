/**
 * An INDEPENDENT recomputation of a PoolReserve contract-ID suffix for the simulator tests,
 * written straight from docs/protocol/contract-id.md §5, §6.1, §6.2, §6.4, §6.5 for this one template's
 * shape, using node:crypto — it shares no code with src/core/hash, so a pass here means the
 * minted IDs do not merely agree with the project's own hasher.
 */
import { createHash } from 'node:crypto';
import type { ReserveFields } from '../../src/sim/reserve-template.js';

const enc = new TextEncoder();
const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const byte = (b: number): Uint8Array => Uint8Array.of(b);
const i32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n);
  return b;
};
const i64 = (n: bigint): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, n);
  return b;
};
const str = (s: string): Uint8Array => {
  const u = enc.encode(s);
  return cat(i32(u.length), u);
};
const lp = (b: Uint8Array): Uint8Array => cat(i32(b.length), b);
const dotted = (segs: readonly string[]): Uint8Array => cat(i32(segs.length), ...segs.map(str));
const qname = (mod: readonly string[], ent: readonly string[]): Uint8Array => cat(dotted(mod), dotted(ent));
/** Java BigInteger.toByteArray of the unscaled value (non-negative here). */
const numeric = (s: string): Uint8Array => {
  const v = BigInt(s.replace('.', ''));
  let hex = v.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return lp(new Uint8Array(bytes));
};
const sha = (b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(b).digest());

export interface IndependentInput {
  readonly fields: ReserveFields;
  /** whether the blob carries a trailing None `previous` (v10 genesis) */
  readonly trailingNone: boolean;
  readonly packageId: string;
  readonly salt: Uint8Array;
  readonly createdAtMicros: bigint;
}

function contractHash(version: 'v10' | 'v11' | 'v12', x: IndependentInput): Uint8Array {
  const f = x.fields;
  const mod = ['Amm', 'Pool'];
  const ent = ['PoolReserve'];
  const pkg = str('amm-pools');
  if (version === 'v10') {
    const inst = (t: { admin: string; id: string }): Uint8Array => cat(i32(2), str(t.admin), str(t.id));
    const n = f.previous !== null || x.trailingNone ? 10 : 9;
    const prev = f.previous !== null ? [cat(i32(1), lp(f.previous))] : x.trailingNone ? [i32(0)] : [];
    return sha(
      cat(
        byte(0),
        byte(5),
        pkg,
        str(x.packageId),
        qname(mod, ent),
        i32(n),
        str(f.operator),
        str(f.poolId),
        inst(f.tokenA),
        inst(f.tokenB),
        numeric(f.reserveA),
        numeric(f.reserveB),
        numeric(f.totalLpSupply),
        numeric(f.feeRate),
        i64(f.sequence),
        ...prev,
      ),
    );
  }
  if (version === 'v11') {
    const nz = (i: number, s: string, b: Uint8Array): Uint8Array[] =>
      /^[0.]*$/.test(s) ? [] : [cat(i32(i), b)];
    const inst = (i: number, t: { admin: string; id: string }): Uint8Array =>
      cat(i32(i), i32(0), str(t.admin), ...(t.id === '' ? [] : [cat(i32(1), str(t.id))]), byte(0xff));
    return sha(
      cat(
        byte(1),
        byte(5),
        pkg,
        str(x.packageId),
        qname(mod, ent),
        cat(i32(0), str(f.operator)),
        ...(f.poolId === '' ? [] : [cat(i32(1), str(f.poolId))]),
        inst(2, f.tokenA),
        inst(3, f.tokenB),
        ...nz(4, f.reserveA, numeric(f.reserveA)),
        ...nz(5, f.reserveB, numeric(f.reserveB)),
        ...nz(6, f.totalLpSupply, numeric(f.totalLpSupply)),
        ...nz(7, f.feeRate, numeric(f.feeRate)),
        ...(f.sequence === 0n ? [] : [cat(i32(8), i64(f.sequence))]),
        ...(f.previous === null ? [] : [cat(i32(9), lp(f.previous))]),
        byte(0xff),
      ),
    );
  }
  const field = (label: string, v: Uint8Array): Uint8Array => cat(str(label), v);
  const inst = (t: { admin: string; id: string }): Uint8Array =>
    cat(
      byte(0x08),
      qname(['Amm', 'Types'], ['InstrumentId']),
      field('admin', cat(byte(4), str(t.admin))),
      field('id', cat(byte(2), str(t.id))),
      byte(0xff),
    );
  return sha(
    cat(
      byte(3),
      byte(5),
      pkg,
      qname(mod, ent),
      byte(0x08),
      qname(mod, ent),
      field('operator', cat(byte(4), str(f.operator))),
      field('poolId', cat(byte(2), str(f.poolId))),
      field('tokenA', inst(f.tokenA)),
      field('tokenB', inst(f.tokenB)),
      field('reserveA', cat(byte(1), numeric(f.reserveA))),
      field('reserveB', cat(byte(1), numeric(f.reserveB))),
      field('totalLpSupply', cat(byte(1), numeric(f.totalLpSupply))),
      field('feeRate', cat(byte(1), numeric(f.feeRate))),
      field('sequence', cat(byte(0), i64(f.sequence))),
      ...(f.previous === null
        ? []
        : [field('previous', cat(byte(0x0c), byte(1), byte(0x0f), lp(f.previous)))]),
      byte(0xff),
    ),
  );
}

/** hex of versionPrefix ‖ 1220 ‖ unicum, to compare with contractId.slice(66). */
export function computeSuffixIndependently(version: 'v10' | 'v11' | 'v12', x: IndependentInput): string {
  const micros = x.createdAtMicros;
  const sec = micros / 1_000_000n;
  const nanos = Number(micros % 1_000_000n) * 1000;
  const seq = (ps: string[]): Uint8Array => cat(i32(ps.length), ...ps.map(str));
  const unicum = sha(
    cat(
      i32(29),
      x.salt,
      i64(sec),
      i32(nanos),
      lp(seq([x.fields.operator])),
      lp(seq([])),
      byte(0),
      lp(byte(0)),
      contractHash(version, x),
    ),
  );
  const prefix = { v10: 'ca10', v11: 'ca11', v12: 'ca12' }[version];
  return `${prefix}1220${Buffer.from(unicum).toString('hex')}`;
}
