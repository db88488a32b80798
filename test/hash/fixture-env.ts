/** Test helper: the type environment of fixtures/types/splice-amulet-0.1.17.types.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTypeEnv, type TypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { repoRoot } from '../helpers/shared.js';

export const SPLICE_TYPES_FILE = join(repoRoot, 'fixtures', 'types', 'splice-amulet-0.1.17.types.json');

export function spliceTypeEnv(): TypeEnv {
  return createTypeEnv(parseTypeFile(readFileSync(SPLICE_TYPES_FILE, 'utf8')).packages);
}
