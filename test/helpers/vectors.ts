/** Typed loader for test/vectors/contract-id-test-vectors.json (copied unchanged from ../shared/vectors). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared.js';

/** The vector files' JSON value notation (see the file): {unit:{}}, {int64:"-1"}, {record:[...]}, … */
export type VectorValue = Record<string, unknown>;

export interface BlobVector {
  name: string;
  source: string;
  contractId: string;
  cantonContractIdVersion: string;
  createdEventBlobBase64: string;
  decoded: {
    serializationVersion: string;
    packageName: string;
    templateId: string;
    signatories: string[];
    nonSignatoryStakeholders: string[];
    createdAtMicros: string;
    authenticationDataHex: string;
    saltHex: string;
  };
  expected: {
    contractHashHex: string;
    unicumHex: string;
    suffixHex: string;
    contractHashPreimageHex?: string;
    unicumPreimageHex?: string;
  };
  typedCreateArgForV12?: VectorValue;
}

export interface ContractIdVectors {
  blobVectors: BlobVector[];
  valueHashVectors: {
    legacyAndUpgradeFriendly: {
      source: string;
      cases: {
        label: string;
        value: VectorValue;
        legacy: string;
        upgradeFriendly: string;
        upgradeFriendlyWrappedInOneFieldRecord: string;
      }[];
    };
    typedNormalForm: {
      source: string;
      cases: { label: string; value: VectorValue; expected: string; templateName?: string }[];
    };
  };
}

let cached: ContractIdVectors | undefined;

export function loadContractIdVectors(): ContractIdVectors {
  cached ??= JSON.parse(
    readFileSync(join(repoRoot, 'test', 'vectors', 'contract-id-test-vectors.json'), 'utf8'),
  ) as ContractIdVectors;
  return cached;
}
