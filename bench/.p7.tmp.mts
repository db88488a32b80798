import { decodeCreatedEventBlob } from '/work/main/src/core/codec/index.js';
import { computeContractHash } from '/work/main/src/core/hash/contract-hash.js';
import { parseContractId } from '/work/main/src/core/hash/contract-id.js';
import { bytesToHex } from '/work/main/src/core/hash/hex.js';
import { computeUnicum } from '/work/main/src/core/hash/unicum.js';
import { verifyDecodedContract } from '/work/main/src/core/hash/verify-contract-id.js';
import { sha256Node } from '/work/main/src/io/node-sha256.js';
import { loadContractIdVectors } from '/work/main/test/helpers/vectors.js';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function rate(name: string, f: () => void) {
  for (let i = 0; i < 30000; i++) f();
  const t = cpu(); let n = 0;
  while (cpu() - t < 400) { for (let i = 0; i < 100; i++) f(); n += 100; }
  console.log(name.padEnd(34), ((cpu() - t) * 1000 / n).toFixed(3), 'us');
}
const b = loadContractIdVectors().blobVectors.find((x) => x.name.includes(process.env.V ?? 'Ping'))!;
const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
const z = new Uint8Array(32);
const noop = () => z;
const ch = computeContractHash('v10', c, sha256Node);
const u = { salt: c.authenticationData.salt!.bytes, createdAt: c.createdAt, signatories: c.signatories, stakeholders: c.stakeholders, key: null, contractHash: ch };
rate('verify (node sha)', () => verifyDecodedContract({ contractId: b.contractId, contract: c, sha256: sha256Node }));
rate('verify (noop sha)', () => verifyDecodedContract({ contractId: b.contractId, contract: c, sha256: noop }));
rate('parseContractId', () => parseContractId(b.contractId));
rate('contractHash (noop sha)', () => computeContractHash('v10', c, noop));
rate('unicum (noop sha)', () => computeUnicum(u, noop));
rate('bytesToHex(32)', () => bytesToHex(ch));
rate('sha node x2 (600B)', () => { sha256Node(new Uint8Array(0)); });
