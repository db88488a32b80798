/**
 * proto/daml_lf.proto and proto/daml_lf2.proto are the documentation of what the hand-walking
 * decoder reads (docs/decisions/dar.md §2). This test keeps them honest: messages encoded by
 * protobufjs FROM THAT SCHEMA (the generated descriptor) decode with src/core/types/dar to the
 * expected types, so a wrong field number in either the .proto text or the decoder fails here.
 */
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { protoDescriptor } from '../../src/core/codec/generated/proto-descriptor.js';
import { decodeArchive, decodeArchivePayload, decodeLf2Package } from '../../src/core/types/dar/index.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { sha256Hex } from './build.js';

const root = protobuf.Root.fromJSON(protoDescriptor);
const T = (name: string) => root.lookupType(`reserve_audit.daml_lf2.${name}`);
const OTHER = 'cd'.repeat(32);

describe('the .proto schema text and the hand-walking decoder agree', () => {
  it('a Package encoded from proto/daml_lf2.proto decodes to the expected data types (LF 2.2 shapes)', () => {
    // S: 0 pkg 1 2.0.0 2 Mod 3 Rec 4 amount 5 items 6 V 7 A 8 B 9 E 10 t
    const strings = ['pkg', '2.0.0', 'Mod', 'Rec', 'amount', 'items', 'V', 'A', 'B', 'E', 't'];
    const ref = (importId: number | null) =>
      importId === null ? { self_package_id: {} } : { package_import_id: importId };
    const pkg = {
      interned_strings: strings,
      interned_dotted_names: [
        { segments_interned_str: [2] },
        { segments_interned_str: [3] },
        { segments_interned_str: [6] },
        { segments_interned_str: [9] },
      ],
      metadata: { name_interned_str: 0, version_interned_str: 1 },
      package_imports: { imported_packages: [OTHER] },
      interned_types: [
        { builtin: { builtin: 5, args: [{ nat: 10 }] } }, // 0: Numeric 10
        { tapp: { lhs: { builtin: { builtin: 10 } }, rhs: { interned: 0 } } }, // 1: List (Numeric 10)
        {
          tapp: {
            lhs: {
              con: {
                tycon: {
                  module: { package_id: ref(0), module_name_interned_dname: 0 },
                  name_interned_dname: 1,
                },
              },
            },
            rhs: { builtin: { builtin: 19, args: [{ builtin: { builtin: 7 } }] } },
          },
        }, // 2
        { var: { var_interned_str: 10 } }, // 3: t
      ],
      modules: [
        {
          name_interned_dname: 0,
          data_types: [
            {
              name_interned_dname: 1,
              serializable: true,
              params: [{ var_interned_str: 10 }],
              record: {
                fields: [
                  { field_interned_str: 4, type: { interned: 0 } },
                  { field_interned_str: 5, type: { interned: 1 } },
                ],
              },
            },
            {
              name_interned_dname: 2,
              serializable: true,
              variant: {
                fields: [
                  { field_interned_str: 7, type: { interned: 2 } },
                  { field_interned_str: 8, type: { interned: 3 } },
                ],
              },
              params: [{ var_interned_str: 10 }],
            },
            { name_interned_dname: 3, serializable: true, enum: { constructors_interned_str: [7, 8] } },
          ],
          templates: [{ tycon_interned_dname: 1 }],
        },
      ],
    };
    const Package = T('Package');
    expect(Package.verify(pkg)).toBeNull();
    const bytes = Package.encode(Package.fromObject(pkg)).finish();
    const payload = root
      .lookupType('reserve_audit.daml_lf.ArchivePayload')
      .encode({ minor: '2', daml_lf_2: bytes })
      .finish();
    const Archive = root.lookupType('reserve_audit.daml_lf.Archive');
    const archive = decodeArchive(Archive.encode({ payload, hash: sha256Hex(payload) }).finish(), sha256Node);
    expect(archive.idVerified).toBe(true);
    const p = decodeArchivePayload(archive.payload);
    expect(p.lfVersion).toBe('2.2');
    const types = decodeLf2Package(p.lf2, { packageId: archive.packageId, lfVersion: p.lfVersion });
    expect(types).toMatchObject({ name: 'pkg', version: '2.0.0', dependencies: [OTHER] });
    expect(types.templates).toEqual(new Set(['Mod:Rec']));
    expect(types.dataTypes.get('Mod:Rec')).toEqual({
      kind: 'record',
      name: { module: ['Mod'], entity: ['Rec'] },
      params: ['t'],
      fields: [
        { name: 'amount', type: { kind: 'numeric', scale: 10 } },
        { name: 'items', type: { kind: 'list', type: { kind: 'numeric', scale: 10 } } },
      ],
    });
    expect(types.dataTypes.get('Mod:V')).toMatchObject({
      kind: 'variant',
      constructors: [
        {
          name: 'A',
          type: {
            kind: 'con',
            ref: { packageId: OTHER, module: ['Mod'], entity: ['Rec'] },
            args: [{ kind: 'textMap', value: { kind: 'text' } }],
          },
        },
        { name: 'B', type: { kind: 'var', name: 't' } },
      ],
    });
    expect(types.dataTypes.get('Mod:E')).toMatchObject({ kind: 'enum', constructors: ['A', 'B'] });
  });
});
