/**
 * V12 fast path: writes the TypedNormalForm encoding (docs/protocol/contract-id.md §6.4, §6.5 enc_T)
 * straight from the UNTYPED blob value and its Daml type, without building a TypedValue tree.
 * The rules are those of `typeValue` (src/core/types/type-value.ts) fused with
 * `encodeTypedNormalFormValue`; the two are cross-checked on every real blob in the tests.
 *
 * Type variables are resolved through frames (params ↦ args, args read in the parent frame), so
 * no type is rebuilt. On any typing problem the fast path stops; the caller then re-runs the
 * precise `typeCreateArgument` to get the error with its path and message.
 */

import { HashError } from '../../errors/hash.js';
import type { DecodedContract } from '../codec/contract.js';
import type { Value } from '../codec/value.js';
import type { DamlType, DataTypeDef, PackageTypes } from '../types/daml-type.js';
import type { TemplateResolution, TypeEnv } from '../types/type-env.js';
import { resolveDataTypeRef } from '../types/type-env.js';
import { DEFAULT_MAX_TYPING_DEPTH, typeCreateArgument } from '../types/type-value.js';
import { HASH_VERSION_BYTE, LF_PURPOSE } from './contract-id-version.js';
import { HashBuilder } from './hash-builder.js';
import { type Compiled, HashContext, TypedHashMemo } from './hash-context.js';
import type { Sha256 } from './sha256.js';
import { sha256Noble } from './sha256.js';
import { createResolved, type Frame, type Resolved, resolveTypeVars } from './type-frames.js';
import { TNF_TAG } from './typed-normal-form-hash.js';

export type { Frame } from './type-frames.js';

/** Thrown inside the fast path only; never escapes a public function. */
class TypingStop {}
const STOP = new TypingStop();

interface Ctx {
  readonly env: TypeEnv;
  /** con type node → its resolved, compiled data type (see consCache) */
  readonly cons: Map<DamlType, Compiled>;
  readonly home: PackageTypes;
  readonly maxDepth: number;
  readonly memo: TypedHashMemo;
  /** resolveTypeVars' result slot */
  readonly resolved: Resolved;
}

function resolve(t: DamlType, frame: Frame | null, ctx: Ctx): void {
  if (!resolveTypeVars(t, frame, ctx.resolved)) throw STOP;
}

function isOptionalType(t: DamlType, frame: Frame | null, ctx: Ctx): boolean {
  resolve(t, frame, ctx);
  return ctx.resolved.type.kind === 'optional';
}

/** The compiled form of `def`, remembered in `memo` when given. */
export function compile(def: DataTypeDef, memo: TypedHashMemo | null = null): Compiled {
  const hit = memo?.compiled.get(def);
  if (hit !== undefined) return hit;
  const tag =
    def.kind === 'record' ? TNF_TAG.record : def.kind === 'variant' ? TNF_TAG.variant : TNF_TAG.enum;
  const head = new HashBuilder(64).byte(tag).qualifiedName(def.name.module, def.name.entity).bytes().slice();
  let parts: Uint8Array[];
  const ranks = new Map<string, number>();
  if (def.kind === 'record') {
    parts = def.fields.map((f) => new HashBuilder(64).str(f.name).bytes().slice());
  } else {
    const names = def.kind === 'variant' ? def.constructors.map((c) => c.name) : def.constructors;
    parts = names.map((n, i) => {
      ranks.set(n, i);
      const b = new HashBuilder(64);
      if (def.kind === 'enum') b.raw(head);
      return b.str(n).i32(i).bytes().slice();
    });
  }
  const first = def.kind === 'record' ? parts[0] : undefined;
  let headFirst = head;
  if (first !== undefined) {
    headFirst = new Uint8Array(head.length + first.length);
    headFirst.set(head);
    headFirst.set(first, head.length);
  }
  const c: Compiled = { def, head, parts, ranks, headFirst };
  memo?.compiled.set(def, c);
  return c;
}

/** The resolved `con` nodes of (env, home) in `memo` (see TypedHashMemo.cons). */
function consCache(memo: TypedHashMemo, env: TypeEnv, home: PackageTypes): Map<DamlType, Compiled> {
  const e = memo.cons.get(env);
  if (e !== undefined && e.size === env.packages.size && e.home === home) return e.map;
  const map = new Map<DamlType, Compiled>();
  memo.cons.set(env, { size: env.packages.size, home, map });
  return map;
}

/** Digits after the '.' (a charCode scan: String#indexOf costs ~60 ns per call here). */
function numericScale(s: string): number {
  for (let i = s.length - 1; i >= 0; i--) if (s.charCodeAt(i) === 46) return s.length - 1 - i;
  return 0;
}

function enc(b: HashBuilder, v: Value, t0: DamlType, f0: Frame | null, ctx: Ctx, depth: number): void {
  if (depth > ctx.maxDepth) throw STOP;
  let t = t0;
  let frame = f0;
  if (t.kind === 'var') {
    resolve(t0, f0, ctx);
    t = ctx.resolved.type;
    frame = ctx.resolved.frame;
  }
  switch (t.kind) {
    case 'unit':
      if (v.kind !== 'unit') throw STOP;
      b.byte(TNF_TAG.unit);
      return;
    case 'bool':
      if (v.kind !== 'bool') throw STOP;
      b.byte(TNF_TAG.bool).byte(v.value ? 1 : 0);
      return;
    case 'int64':
      if (v.kind !== 'int64') throw STOP;
      b.byte(TNF_TAG.int64).i64(v.value);
      return;
    case 'timestamp':
      if (v.kind !== 'timestamp') throw STOP;
      b.byte(TNF_TAG.timestamp).i64(v.value);
      return;
    case 'date':
      if (v.kind !== 'date') throw STOP;
      b.byte(TNF_TAG.date).i32(v.value);
      return;
    case 'text':
      if (v.kind !== 'text') throw STOP;
      b.byte(TNF_TAG.text).str(v.value);
      return;
    case 'party':
      if (v.kind !== 'party') throw STOP;
      b.byte(TNF_TAG.party).str(v.value);
      return;
    case 'contractId':
      if (v.kind !== 'contractId') throw STOP;
      b.byte(TNF_TAG.contractId).lp(v.value);
      return;
    case 'numeric':
      if (v.kind !== 'numeric' || numericScale(v.value) !== t.scale) throw STOP;
      b.byte(TNF_TAG.numeric).numeric(v.value);
      return;
    case 'optional':
      if (v.kind !== 'optional') throw STOP;
      b.byte(TNF_TAG.optional);
      if (v.value === null) b.byte(0);
      else {
        b.byte(1);
        enc(b, v.value, t.type, frame, ctx, depth + 1);
      }
      return;
    case 'list': {
      if (v.kind !== 'list') throw STOP;
      const xs = v.elements;
      b.byte(TNF_TAG.list).i32(xs.length);
      for (let i = 0; i < xs.length; i++) enc(b, xs[i] as Value, t.type, frame, ctx, depth + 1);
      return;
    }
    case 'textMap': {
      if (v.kind !== 'textMap') throw STOP;
      const es = v.entries;
      b.byte(TNF_TAG.textMap).i32(es.length);
      for (let i = 0; i < es.length; i++) {
        const e = es[i] as readonly [string, Value];
        b.str(e[0]);
        enc(b, e[1], t.value, frame, ctx, depth + 1);
      }
      return;
    }
    case 'genMap': {
      if (v.kind !== 'genMap') throw STOP;
      const es = v.entries;
      b.byte(TNF_TAG.genMap).i32(es.length);
      for (let i = 0; i < es.length; i++) {
        const e = es[i] as readonly [Value, Value];
        enc(b, e[0], t.key, frame, ctx, depth + 1);
        enc(b, e[1], t.value, frame, ctx, depth + 1);
      }
      return;
    }
    case 'con': {
      let def: DataTypeDef | undefined;
      let c = ctx.cons.get(t);
      if (c === undefined) {
        def = resolveDataTypeRef(ctx.env, t.ref, ctx.home);
        if (def === undefined || def.params.length !== t.args.length) throw STOP;
        c = compile(def, ctx.memo);
        ctx.cons.set(t, c);
      }
      def = c.def;
      const inner = def.params.length === 0 ? null : { params: def.params, args: t.args, parent: frame };
      encData(b, v, def, c, inner, ctx, depth);
      return;
    }
    case 'var':
      throw STOP;
  }
}

function encData(
  b: HashBuilder,
  v: Value,
  def: DataTypeDef,
  c: Compiled,
  frame: Frame | null,
  ctx: Ctx,
  depth: number,
): void {
  switch (def.kind) {
    case 'record': {
      if (v.kind !== 'record') throw STOP;
      const vs = v.fields;
      const fs = def.fields;
      const n = vs.length;
      if (n > fs.length) throw STOP;
      for (let i = n; i < fs.length; i++) {
        if (!isOptionalType((fs[i] as { type: DamlType }).type, frame, ctx)) throw STOP;
      }
      let end = n;
      while (end > 0) {
        const last = vs[end - 1] as Value;
        if (last.kind === 'optional' && last.value === null) end--;
        else break;
      }
      for (let i = end; i < n; i++) {
        if (!isOptionalType((fs[i] as { type: DamlType }).type, frame, ctx)) throw STOP;
      }
      if (end === 0) b.raw(c.head);
      else {
        b.raw(c.headFirst);
        enc(b, vs[0] as Value, (fs[0] as { type: DamlType }).type, frame, ctx, depth + 1);
        const labels = c.parts;
        for (let i = 1; i < end; i++) {
          b.raw(labels[i] as Uint8Array);
          enc(b, vs[i] as Value, (fs[i] as { type: DamlType }).type, frame, ctx, depth + 1);
        }
      }
      b.byte(0xff);
      return;
    }
    case 'variant': {
      if (v.kind !== 'variant') throw STOP;
      const rank = c.ranks.get(v.constructor);
      if (rank === undefined) throw STOP;
      b.raw(c.head).raw(c.parts[rank] as Uint8Array);
      enc(b, v.value, (def.constructors[rank] as { type: DamlType }).type, frame, ctx, depth + 1);
      return;
    }
    case 'enum': {
      if (v.kind !== 'enum') throw STOP;
      const rank = c.ranks.get(v.constructor);
      if (rank === undefined) throw STOP;
      b.raw(c.parts[rank] as Uint8Array);
      return;
    }
  }
}

/**
 * Writes the whole V12 contract-hash preimage 03 05 ‖ str(packageName) ‖ qname ‖ enc_T(arg),
 * typing the create argument with `resolution` on the fly. Throws the precise DamlTypeError
 * (from typeCreateArgument) when the argument does not fit. `memo`: compiled types kept between
 * calls (a HashContext's; without one everything is compiled for this call).
 */
export function encodeTypedContractHashPreimage(
  b: HashBuilder,
  contract: Pick<DecodedContract, 'packageName' | 'templateId' | 'createArg'>,
  env: TypeEnv,
  resolution: TemplateResolution,
  memo: TypedHashMemo | null = null,
): void {
  const t = contract.templateId;
  b.byte(HASH_VERSION_BYTE.typedNormalForm).byte(LF_PURPOSE.contractInstance).str(contract.packageName);
  b.qualifiedName(t.module, t.entity);
  const m = memo ?? new TypedHashMemo();
  const ctx: Ctx = {
    env,
    cons: consCache(m, env, resolution.package),
    home: resolution.package,
    maxDepth: DEFAULT_MAX_TYPING_DEPTH,
    memo: m,
    resolved: createResolved(),
  };
  try {
    if (resolution.dataType.params.length !== 0) throw STOP;
    encData(b, contract.createArg, resolution.dataType, compile(resolution.dataType, ctx.memo), null, ctx, 0);
  } catch (e) {
    if (!(e instanceof TypingStop)) throw e;
    typeCreateArgument(contract, env); // throws the precise DamlTypeError
    throw new HashError(
      'VALUE_NOT_HASHABLE',
      '"createArg" expected to be typable by the fast V12 encoder as by typeCreateArgument, got a disagreement (internal error)',
    );
  }
}

/**
 * The V12 contract hash of an untyped contract, typed on the fly with `resolution` (see
 * resolveTemplate). `context`: the builder and memo repeated hashes share (a fresh one when absent).
 */
export function computeTypedContractHash(
  contract: Pick<DecodedContract, 'packageName' | 'templateId' | 'createArg'>,
  env: TypeEnv,
  resolution: TemplateResolution,
  sha256: Sha256 = sha256Noble,
  context: HashContext = new HashContext(),
): Uint8Array {
  const b = context.builder.reset();
  encodeTypedContractHashPreimage(b, contract, env, resolution, context.typed);
  return sha256(b.bytes());
}
