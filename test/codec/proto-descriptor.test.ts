/** The generated descriptor is up to date with proto/*.proto, and protobufjs reads it. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { protoDescriptor } from '../../src/core/codec/generated/proto-descriptor.js';
import { repoRoot } from '../helpers/shared.js';

describe('proto descriptor', () => {
  it('src/core/codec/generated/proto-descriptor.ts matches `npm run gen:proto`', () => {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts', 'gen-proto.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(out).toContain('up to date');
  });
  it('holds the messages the codec needs, with the spec’s field numbers', () => {
    const root = protobuf.Root.fromJSON(protoDescriptor);
    const fci = root.lookupType('reserve_audit.blob.current.FatContractInstance');
    expect(fci.fieldsArray.map((f) => f.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 1001]);
    const legacy = root.lookupType('reserve_audit.blob.legacy.FatContractInstance');
    expect(legacy.fields.package_name?.id).toBe(9);
    expect(legacy.fields.template_id?.id).toBe(2);
    const value = root.lookupType('reserve_audit.blob.current.Value');
    expect(value.fields.text_map?.id).toBe(16);
    expect(value.fields.int64?.type).toBe('sint64');
    expect(root.lookupType('reserve_audit.blob.legacy.Value').fields.party?.id).toBe(10);
    expect(root.lookupType('reserve_audit.canton.UntypedVersionedMessage').fields.version?.id).toBe(2);
  });
});
