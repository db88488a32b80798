/**
 * The template lookup of the verdict engine (src/core/verdict/wasm/engine.ts) and the proof step's
 * verdict detail: the type environment's answer
 * for a blob's package name and template identifier, found by their bytes — the blob's
 * `package_name` and `template_id` fields as one key, compared byte for byte (BytesMemo) — so no
 * strings are built for a template already seen. A miss builds the names once and asks
 * `resolveTemplateCached`. The memo (`TemplateOfBytesMemo`, the caller's: a `HashContext` or the
 * engine holds one) is per environment, bounded, and dropped when packages were added since (as the
 * typed encoder's constructor cache is).
 */
import { BytesMemo } from '../codec/bytes-memo.js';
import type { TemplateId } from '../codec/contract.js';
import type { TemplateLookup, TypeEnv } from '../types/type-env.js';
import { resolveTemplateCached } from '../types/type-env.js';

const latin1 = new TextDecoder('latin1');
/** memo slots per environment (direct-mapped) and the longest key remembered */
const SLOTS = 1024;
const MAX_KEY_BYTES = 2048;

/** Template lookups by their bytes, per environment (a `HashContext` or the engine holds one). */
export class TemplateOfBytesMemo {
  private readonly byEnv = new WeakMap<TypeEnv, { size: number; map: BytesMemo<TemplateLookup> }>();

  /**
   * The lookup of the template whose package name is `buf[nameAt, nameStop)` and whose Identifier
   * message (already checked: package_id, then module_name segments, then name segments) is
   * `buf[idAt, idStop)`; `buf[nameAt, idStop)` is the key. `view`: a DataView of all of `buf`'s
   * bytes (`new DataView(buf.buffer, buf.byteOffset, buf.length)`).
   */
  lookup(
    env: TypeEnv,
    buf: Uint8Array,
    view: DataView,
    nameAt: number,
    nameStop: number,
    idAt: number,
    idStop: number,
  ): TemplateLookup {
    let e = this.byEnv.get(env);
    if (e === undefined || e.size !== env.packages.size) {
      e = { size: env.packages.size, map: new BytesMemo(SLOTS, MAX_KEY_BYTES) };
      this.byEnv.set(env, e);
    }
    const hit = e.map.get(buf, view, nameAt, idStop);
    if (hit !== undefined) return hit;
    const r = resolveTemplateCached(
      env,
      decodeIdentifierOfBytes(buf, idAt, idStop),
      latin1.decode(buf.subarray(nameAt, nameStop)),
    );
    e.map.set(buf, nameAt, idStop, r);
    return r;
  }
}

/** The names of a checked Identifier message (fields 1, 2…, 3… with one-byte tags and lengths < 2^14). */
export function decodeIdentifierOfBytes(buf: Uint8Array, at: number, stop: number): TemplateId {
  let packageId = '';
  const module: string[] = [];
  const entity: string[] = [];
  let p = at;
  while (p < stop) {
    const field = (buf[p] as number) >>> 3;
    let len = buf[p + 1] as number;
    p += 2;
    if (len >= 0x80) {
      len = (len & 0x7f) | ((buf[p] as number) << 7);
      p++;
    }
    const s = latin1.decode(buf.subarray(p, p + len));
    p += len;
    if (field === 1) packageId = s;
    else (field === 2 ? module : entity).push(s);
  }
  return { packageId, module, entity };
}
