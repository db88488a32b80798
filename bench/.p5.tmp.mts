import { spliceTypeEnv } from '/work/main/test/hash/fixture-env.js';
import { decodeCreatedEventBlob } from '/work/main/src/core/codec/index.js';
import { HashBuilder } from '/work/main/src/core/hash/hash-builder.js';
import { encodeTypedContractHashPreimage } from '/work/main/src/core/hash/typed-value-hash.js';
import { encodeLegacyValue } from '/work/main/src/core/hash/legacy-hash.js';
import { resolveTemplate } from '/work/main/src/core/types/type-env.js';
import { sha256Node } from '/work/main/src/io/node-sha256.js';
import { loadContractIdVectors } from '/work/main/test/helpers/vectors.js';
const env = spliceTypeEnv();
const b = loadContractIdVectors().blobVectors.find((x) => x.name.includes('AmuletRules (V12)'))!;
const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
const r = resolveTemplate(env, c.templateId, c.packageName); if (!r.ok) throw 0;
const hb = new HashBuilder(8192);
function rate(name: string, f: () => void) {
  for (let i = 0; i < 20000; i++) f();
  const out = [];
  for (let k = 0; k < 15; k++) { const t = performance.now(); let n = 0; while (performance.now() - t < 300) { for (let i = 0; i < 50; i++) f(); n += 50; } out.push(((performance.now() - t) * 1000 / n).toFixed(2)); }
  console.log(name.padEnd(30), out.join(' '), 'us');
}
rate('tnf fused', () => { hb.reset(); encodeTypedContractHashPreimage(hb, c, env, r); });

hb.reset(); encodeTypedContractHashPreimage(hb, c, env, r); const pre = hb.bytes().slice();


console.log(pre.length);
