/**
 * The template identifier of the one-pass verdict (one-pass-verdict.ts), from the blob's bytes:
 * the `Identifier { package_id; module_name+; name+ }` message is checked (package id, Daml names)
 * and written into the contract-hash preimage as identifier(...) (V10/V11,
 * docs/protocol/contract-id.md §6.1–§6.2) or as its qualified name only (V12, §6.4), with no strings. What
 * it wrote is
 * remembered by the message's bytes (BytesMemo): identifiers recur in every blob of a template.
 */
import { BytesMemo } from '../codec/bytes-memo.js';
import { isDamlNameBytes, isPackageIdBytes } from '../codec/validate-bytes.js';
import { WIRE_LEN, type WireReader } from '../codec/wire-reader.js';
import type { HashBuilder } from './hash-builder.js';

/**
 * Template identifiers that passed writeIdentifier, by their Identifier message bytes → what it
 * wrote: with the package id (V10/V11) and without (V12). They recur in every blob of a template.
 */
const identifierWithPackage = new BytesMemo<Uint8Array>(64, 1024);
const identifierQualified = new BytesMemo<Uint8Array>(64, 1024);

/** writeIdentifier, remembered by the Identifier message's bytes `[r.pos, stop)`. */
export function writeIdentifierOfBytes(
  r: WireReader,
  view: DataView,
  stop: number,
  b: HashBuilder,
  withPackageId: boolean,
): boolean {
  const memo = withPackageId ? identifierWithPackage : identifierQualified;
  const at = r.pos;
  const hit = memo.get(r.buf, view, at, stop);
  if (hit !== undefined) {
    b.raw(hit);
    r.pos = stop;
    return true;
  }
  const mark = b.length;
  if (!writeIdentifier(r, stop, b, withPackageId)) return false;
  memo.set(r.buf, at, stop, b.bytes().slice(mark));
  return true;
}

/**
 * Identifier { package_id; module_name+; name+ } in that order → identifier(...) of the preimage
 * (V10/V11), or only its qualified name (V12, `withPackageId` false).
 */
function writeIdentifier(r: WireReader, stop: number, b: HashBuilder, withPackageId: boolean): boolean {
  const buf = r.buf;
  if (r.readTag(stop) !== ((1 << 3) | WIRE_LEN)) return false;
  const pStop = r.readLength(stop, 'Identifier.package_id');
  if (!isPackageIdBytes(buf, r.pos, pStop)) return false;
  if (withPackageId) b.strRange(buf, r.pos, pStop);
  r.pos = pStop;
  for (let field = 2; field <= 3; field++) {
    const countAt = b.length;
    b.i32(0);
    let n = 0;
    while (r.pos < stop && buf[r.pos] === ((field << 3) | WIRE_LEN)) {
      r.pos++;
      const sStop = r.readLength(stop, 'Identifier');
      if (!isDamlNameBytes(buf, r.pos, sStop)) return false;
      b.strRange(buf, r.pos, sStop);
      r.pos = sStop;
      n++;
    }
    if (n === 0) return false;
    b.patchI32(countAt, n);
  }
  return r.pos === stop;
}
