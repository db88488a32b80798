/**
 * The V12 types of a template laid out as the nodes the WebAssembly walk reads (./assembly/one-pass.ts,
 * "V12"): one node per type instantiation with every type variable resolved — the type frames of
 * the reference's typed encoder worked out ahead — and the byte pieces of records, variants and enums
 * (compile() of typed-value-hash.ts: heads with the qualified name, labels, constructors with
 * their ranks) next to them. Recursive types become cycles of nodes.
 *
 * Nodes are remembered per (environment, home package) by a key that spells the instantiation;
 * a new environment, new packages in it, or a full area starts over. A type this layout cannot
 * express (an unbound variable, an unknown reference, instantiations that do not end) gives 0:
 * the walk then declines and the reference answers.
 */
import { K } from '../../codec/schema.js';
import { TypedHashMemo } from '../../hash/hash-context.js';
import { createResolved, type Frame, resolveTypeVars } from '../../hash/type-frames.js';
import { compile } from '../../hash/typed-value-hash.js';
import type { DamlType, DataTypeDef } from '../../types/daml-type.js';
import type { TemplateResolution, TypeEnv } from '../../types/type-env.js';
import { resolveDataTypeRef } from '../../types/type-env.js';

/**
 * node kinds: the codec's value kinds, which are the current layout's Value field numbers — the
 * module dispatches on both alike (test/verdict/engine-cases.test.ts checks that they are)
 */
const KIND = K;

/** a key longer than this: instantiations that grow without end (polymorphic recursion) */
const MAX_KEY = 2048;

class CannotLayOut {}
/** a type the nodes cannot express */
const CANNOT = new CannotLayOut();
/** the area is full */
const FULL = new CannotLayOut();

type Home = TemplateResolution['package'];

export class WasmTypeLayout {
  private readonly view: DataView;
  private next: number;
  private env: TypeEnv | null = null;
  private packages = -1;
  private readonly nodes = new Map<Home, Map<string, number>>();
  private readonly defIds = new Map<DataTypeDef, number>();
  private home: Home | null = null;
  private memo: Map<string, number> = new Map();
  /** resolveTypeVars' result slot */
  private readonly resolved = createResolved();
  /** compiled data types (the typed encoder's heads and labels) */
  private readonly compiled = new TypedHashMemo();

  /** `memory`: the module's whole memory; the area is [base, base + size) of it */
  constructor(
    private readonly memory: Uint8Array,
    private readonly base: number,
    private readonly size: number,
  ) {
    this.view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
    this.next = base;
  }

  /** The root record node of a resolved template without type parameters, or 0. */
  rootOf(env: TypeEnv, resolution: TemplateResolution): number {
    const def = resolution.dataType;
    if (def.kind !== 'record' || def.params.length !== 0) return 0;
    if (env !== this.env || env.packages.size !== this.packages) this.reset(env);
    let memo = this.nodes.get(resolution.package);
    if (memo === undefined) {
      memo = new Map();
      this.nodes.set(resolution.package, memo);
    }
    this.home = resolution.package;
    this.memo = memo;
    const rootKey = `r${this.defId(def)}`;
    const hit = memo.get(rootKey);
    if (hit !== undefined) return hit;
    const start = this.next;
    const before = memo.size;
    try {
      return this.nodeOfDef(def, null, rootKey);
    } catch (e) {
      if (e === FULL) {
        // start over for the next template
        this.reset(env);
        return 0;
      }
      if (e !== CANNOT) throw e;
      // forget the nodes of this attempt (some are incomplete), and remember the answer
      let i = 0;
      for (const k of [...memo.keys()]) if (i++ >= before) memo.delete(k);
      this.next = start;
      memo.set(rootKey, 0);
      return 0;
    }
  }

  private reset(env: TypeEnv): void {
    this.env = env;
    this.packages = env.packages.size;
    this.nodes.clear();
    this.defIds.clear();
    this.next = this.base;
  }

  private defId(def: DataTypeDef): number {
    let id = this.defIds.get(def);
    if (id === undefined) {
      id = this.defIds.size + 1;
      this.defIds.set(def, id);
    }
    return id;
  }

  private alloc(bytes: number): number {
    const at = (this.next + 3) & ~3;
    if (at + bytes > this.base + this.size) throw FULL;
    this.next = at + bytes;
    return at;
  }

  private word(node: number, i: number, v: number): void {
    this.view.setUint32(node + 4 * i, v, true);
  }

  private bytes(b: Uint8Array): number {
    const at = this.alloc(b.length);
    this.memory.set(b, at);
    return at;
  }

  private resolveDef(t: Extract<DamlType, { kind: 'con' }>): DataTypeDef {
    const def = resolveDataTypeRef(this.env as TypeEnv, t.ref, this.home as Home);
    if (def === undefined || def.params.length !== t.args.length) throw CANNOT;
    return def;
  }

  /** The key of `t` under `frame`: the instantiation spelled out. */
  private keyOf(t0: DamlType, f0: Frame | null): string {
    if (!resolveTypeVars(t0, f0, this.resolved)) throw CANNOT;
    const t = this.resolved.type;
    const frame = this.resolved.frame;
    let key: string;
    switch (t.kind) {
      case 'numeric':
        key = `n${t.scale}`;
        break;
      case 'optional':
        key = `o(${this.keyOf(t.type, frame)})`;
        break;
      case 'list':
        key = `l(${this.keyOf(t.type, frame)})`;
        break;
      case 'textMap':
        key = `t(${this.keyOf(t.value, frame)})`;
        break;
      case 'genMap':
        key = `g(${this.keyOf(t.key, frame)},${this.keyOf(t.value, frame)})`;
        break;
      case 'con': {
        const def = this.resolveDef(t);
        key = `d${this.defId(def)}<${t.args.map((a) => this.keyOf(a, frame)).join(',')}>`;
        break;
      }
      default:
        key = t.kind;
    }
    if (key.length > MAX_KEY) throw CANNOT;
    return key;
  }

  private nodeOf(t0: DamlType, f0: Frame | null): number {
    const key = this.keyOf(t0, f0);
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    if (!resolveTypeVars(t0, f0, this.resolved)) throw CANNOT;
    const t = this.resolved.type;
    const frame = this.resolved.frame;
    let node: number;
    switch (t.kind) {
      case 'numeric':
        node = this.alloc(8);
        this.word(node, 0, KIND.numeric);
        this.word(node, 1, t.scale);
        break;
      case 'optional':
      case 'list':
      case 'textMap': {
        const child = this.nodeOf(t.kind === 'textMap' ? t.value : t.type, frame);
        node = this.alloc(8);
        this.word(node, 0, KIND[t.kind]);
        this.word(node, 1, child);
        break;
      }
      case 'genMap': {
        const k = this.nodeOf(t.key, frame);
        const v = this.nodeOf(t.value, frame);
        node = this.alloc(12);
        this.word(node, 0, KIND.genMap);
        this.word(node, 1, k);
        this.word(node, 2, v);
        break;
      }
      case 'con': {
        const def = this.resolveDef(t);
        const inner = def.params.length === 0 ? null : { params: def.params, args: t.args, parent: frame };
        return this.nodeOfDef(def, inner, key);
      }
      case 'var':
        throw CANNOT;
      default:
        node = this.alloc(4);
        this.word(node, 0, KIND[t.kind]);
    }
    this.memo.set(key, node);
    return node;
  }

  /** A record, variant or enum node (remembered before its children: recursive types close). */
  private nodeOfDef(def: DataTypeDef, inner: Frame | null, key: string): number {
    const c = compile(def, this.compiled);
    const n = def.kind === 'record' ? def.fields.length : def.constructors.length;
    const node = this.alloc(16 + 16 * n);
    this.memo.set(key, node);
    const kind = KIND[def.kind];
    this.word(node, 0, kind);
    this.word(node, 1, def.kind === 'enum' ? 0 : this.bytes(c.head));
    this.word(node, 2, c.head.length);
    this.word(node, 3, n);
    for (let i = 0; i < n; i++) {
      const part = c.parts[i] as Uint8Array;
      const at = node + 16 + 16 * i;
      this.word(at, 0, this.bytes(part));
      this.word(at, 1, part.length);
      if (def.kind === 'record') {
        const type = (def.fields[i] as { type: DamlType }).type;
        this.word(at, 2, this.nodeOf(type, inner));
        const optional =
          resolveTypeVars(type, inner, this.resolved) && this.resolved.type.kind === 'optional';
        this.word(at, 3, optional ? 1 : 0);
      } else if (def.kind === 'variant') {
        this.word(at, 2, this.nodeOf((def.constructors[i] as { type: DamlType }).type, inner));
        this.word(at, 3, 0);
      } else {
        this.word(at, 2, 0);
        this.word(at, 3, 0);
      }
    }
    return node;
  }
}
