/**
 * `inspect-dar`, `types --dar` and `verify-contract --dar` run in-process on the real DARs and on
 * temp dirs (docs/protocol/dar-format.md §6): package listing, the reachable type tree, a written type file
 * that then verifies the V12 vector without the DAR, and typed errors → exit code 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeArchive } from '../../src/core/types/dar/index.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { buildDalf, buildDar, encodePackage } from './build.js';

const dir = sharedDarsDir();
if (dir === null) console.warn(`test/dar/cli.test.ts: ${SHARED_DARS_SKIP_REASON}`);
const dar17 = dir === null ? '' : join(dir, 'splice-amulet-0.1.17.dar');
const dar14 = dir === null ? '' : join(dir, 'splice-amulet-0.1.14.dar');
const v12 = loadContractIdVectors().blobVectors.filter((b) => b.typedCreateArgForV12 !== undefined);
const ID_17 = '6c5802f86709a0ad4784af81f0bab40f3070b2f58128d8843da1e1784c147802';

describe('inspect-dar / types on a small built DAR (always runs)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ra-dar-'));
  // S: 0 name, 1 version, 2 M, 3 T, 4 f
  const { bytes, id } = buildDalf(
    encodePackage({
      strings: ['tiny', '0.0.1', 'M', 'T', 'f'],
      dnames: [[2], [3]],
      modules: [
        {
          name: 0,
          templates: [1],
          dataTypes: [{ name: 1, record: [[4, Uint8Array.from([0x1a, 0x02, 0x08, 0x06])]] }],
        },
      ],
    }),
  );
  writeFileSync(join(tmp, 'tiny.dar'), buildDar([{ path: 'tiny/tiny.dalf', bytes }]));
  writeFileSync(join(tmp, 'tiny.dalf'), bytes);
  writeFileSync(join(tmp, 'tiny.payload'), decodeArchive(bytes, sha256Node).payload);
  writeFileSync(join(tmp, 'broken.dar'), Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]));

  it('inspect-dar lists the package with its recomputed id', async () => {
    const r = await runCliForTest(['inspect-dar', 'tiny.dar'], { cwd: tmp });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`main  ${id}  declared ok  LF 2.1  tiny 0.0.1`);
  });

  it('inspect-dar reads bare ArchivePayload bytes (as a participant serves them): same id, undeclared', async () => {
    const r = await runCliForTest(['inspect-dar', 'tiny.payload'], { cwd: tmp });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`main  ${id}  undeclared   LF 2.1  tiny 0.0.1`);
  });

  it('inspect-dar --json on a bare dalf, with --template', async () => {
    const r = await runCliForTest(['inspect-dar', 'tiny.dalf', '--json', '--template', 'M:T'], { cwd: tmp });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.manifest).toBeNull();
    expect(j.packages).toEqual([
      expect.objectContaining({
        packageId: id,
        idVerified: true,
        name: 'tiny',
        version: '0.0.1',
        lfVersion: '2.1',
        main: true,
      }),
    ]);
    expect(j.template.types.packages[0].dataTypes['M:T']).toEqual({ record: [['f', 'Party']] });
  });

  it('errors are typed and exit 2: corrupt DAR, missing file, unknown template', async () => {
    const a = await runCliForTest(['inspect-dar', 'broken.dar'], { cwd: tmp });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/DAR_ZIP_TRUNCATED/);
    const b = await runCliForTest(['inspect-dar', 'missing.dar'], { cwd: tmp });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/DAR_FILE_READ_FAILED/);
    const c = await runCliForTest(['types', '--dar', 'tiny.dar', '--template', 'M:Nope'], { cwd: tmp });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/DAR_TEMPLATE_NOT_FOUND/);
  });

  it('types --out to an unwritable path is a usage error (exit 2), not an internal error', async () => {
    const r = await runCliForTest(
      ['types', '--dar', 'tiny.dar', '--template', 'M:T', '--out', 'no-such-dir/t.json'],
      { cwd: tmp },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OPTION_INVALID: "--out" expected a writable file path/);
  });
});

describe.skipIf(dir === null)('CLI on the real Splice DARs (splice-amulet 0.1.14, 0.1.17)', () => {
  it('inspect-dar --template prints the OpenMiningRound type tree of 0.1.14', async () => {
    const r = await runCliForTest(['inspect-dar', dar14, '--template', 'Splice.Round:OpenMiningRound']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^splice-amulet-0\.1\.14\.dar: 37 packages, main splice-amulet 0\.1\.14/);
    expect(r.stdout).toContain(
      'main  3ca1343ab26b453d38c8adb70dca5f1ead8440c42b59b68f070786955cbf9ec1  declared ok  LF 2.1',
    );
    expect(r.stdout).toContain('record Splice.Round:OpenMiningRound');
    expect(r.stdout).toContain('  amuletPrice: Numeric 10\n');
    expect(r.stdout).toContain(
      '  transferConfigUsd: Splice.AmuletConfig:TransferConfig Splice.AmuletConfig:USD\n',
    );
    expect(r.stdout).toContain('record Splice.Types:Round    -- splice-amulet 0.1.14\n  number: Int64\n');
    expect(r.stdout).toContain('  steps: List (DA.Types:Tuple2 (Numeric 10) (Numeric 10))\n');
  });

  it('types --dar writes a type file that verify-contract --types then verifies with (no DAR needed)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ra-types-'));
    for (const b of v12) {
      const tpl = b.decoded.templateId.slice(65);
      const out = join(tmp, `${tpl.replace(/[:.]/g, '_')}.json`);
      const w = await runCliForTest(['types', '--dar', dar17, '--template', tpl, '--out', out]);
      expect(w.code).toBe(0);
      expect(w.stderr).toMatch(/^wrote .*data types from \d+ packages/);
      const tf = parseTypeFile(readFileSync(out, 'utf8'));
      expect(tf.packages[0]!.packageId).toBe(ID_17);
      expect([...tf.packages[0]!.templates]).toEqual([tpl]);
      const v = await runCliForTest([
        'verify-contract',
        '--contract-id',
        b.contractId,
        '--blob',
        b.createdEventBlobBase64,
        '--types',
        out,
      ]);
      expect(v.stdout).toMatch(/^verified:/);
      expect(v.code).toBe(0);
    }
  });

  it('types --dar without --out prints the type file to stdout', async () => {
    const r = await runCliForTest(['types', '--dar', dar17, '--template', 'Splice.Amulet:FeaturedAppRight']);
    expect(r.code).toBe(0);
    const tf = parseTypeFile(r.stdout);
    expect(tf.packages).toHaveLength(1);
    expect(tf.packages[0]!.dataTypes.get('Splice.Amulet:FeaturedAppRight')).toMatchObject({
      fields: [{ name: 'dso' }, { name: 'provider' }],
    });
    expect(tf.provenance.notes).toMatch(/splice-amulet-0\.1\.17\.dar/);
  });

  it('verify-contract --dar (repeatable) verifies the V12 vectors; without types V12 cannot be checked', async () => {
    for (const b of v12) {
      const args = ['verify-contract', '--contract-id', b.contractId, '--blob', b.createdEventBlobBase64];
      const r = await runCliForTest([...args, '--dar', dar14, '--dar', dar17, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        status: 'verified',
        contractHash: b.expected.contractHashHex,
      });
      const none = await runCliForTest(args);
      expect(none.code).toBe(2);
    }
  });
});
