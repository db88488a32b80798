import { decodeCreatedEventBlob } from '/work/main/src/core/codec/index.js';
import { verifyDecodedContract } from '/work/main/src/core/hash/verify-contract-id.js';
import { sha256Node } from '/work/main/src/io/node-sha256.js';
import { loadContractIdVectors } from '/work/main/test/helpers/vectors.js';
const b = loadContractIdVectors().blobVectors.find((x) => x.name.includes('Ping'))!;
const c = decodeCreatedEventBlob(b.createdEventBlobBase64);
const t = performance.now(); let n = 0;
while (performance.now() - t < 4000) { for (let i = 0; i < 100; i++) verifyDecodedContract({ contractId: b.contractId, contract: c, sha256: sha256Node }); n += 100; }
console.log((performance.now() - t) * 1000 / n, 'us');
