/**
 * CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) as used by zip entries
 * (PKWARE APPNOTE §4.4.7). Table-driven, one byte per step; pure.
 */

const TABLE: Readonly<Uint32Array> = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of `data`, as an unsigned 32-bit number. */
export function computeCrc32(data: Uint8Array): number {
  let c = 0xffffffff;
  const t = TABLE;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
