import { readFileSync } from 'node:fs';
import { inflateRawSync, crc32 } from 'node:zlib';
import { decodeZip } from './src/core/codec/dar/zip.js';
import { computeCrc32 } from './src/core/codec/dar/crc32.js';
import { decodeArchive, decodeArchivePayload } from './src/core/codec/dar/archive.js';
import { decodeLf2Package } from './src/core/codec/dar/lf2-package.js';
import { sha256Node } from './src/io/node-sha256.js';
const bytes = readFileSync(`/work/shared/dars/splice-amulet-0.1.17.dar`);
for (let k = 0; k < 1; k++) {
let t = performance.now();
const zip = decodeZip(bytes, { inflateRaw: (b, max) => inflateRawSync(b, { maxOutputLength: Math.max(max, 1) }) });
const dalfs = zip.entries.filter((e) => e.name.endsWith('.dalf'));
const datas = dalfs.map((e) => zip.readEntry(e.name));
const t1 = performance.now();
let tot = 0; for (const d of datas) tot += d.length;
const t1b = performance.now(); for (const d of datas) computeCrc32(d); const t1c = performance.now();
const arcs = datas.map((d) => decodeArchive(d, sha256Node));
const t2 = performance.now();
const pls = arcs.map((a) => ({ a, p: decodeArchivePayload(a.payload) }));
const pk = pls.map(({ a, p }) => decodeLf2Package(p.lf2, { packageId: a.packageId, lfVersion: p.lfVersion }));
const t3 = performance.now();
console.log('zip+inflate+crc', (t1 - t).toFixed(1), 'crc alone', (t1c - t1b).toFixed(1), 'total bytes', tot, 'archive+sha', (t2 - t1).toFixed(1), 'lf2', (t3 - t2).toFixed(1));
}
