import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workflowFiles, workflowProblems } from '../../../scripts/lint-workflows.js';

describe('the workflow check of npm run lint', () => {
  it('passes the repository’s workflows: CI and Release', async () => {
    const files = await workflowFiles();
    expect(files.map((file) => basename(file)).sort()).toEqual(['ci.yml', 'release.yml']);
    for (const file of files) expect(workflowProblems(file, await readFile(file, 'utf8'))).toEqual([]);
  });

  it('fails a workflow with a misspelt key, no trigger or broken YAML, naming where', () => {
    const misspelt = 'on: push\njobs:\n  build:\n    runs-onn: ubuntu-latest\n    steps:\n      - run: npm test\n';
    expect(workflowProblems('bad.yml', misspelt).join('\n')).toMatch(/bad\.yml: \/jobs\/build: Additional property 'runs-onn' is not allowed/);
    const noTrigger = 'jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
    expect(workflowProblems('bad.yml', noTrigger)).toEqual(['bad.yml: /on: This property is required']);
    const broken = 'on: push\njobs:\n  build: [\n';
    expect(workflowProblems('bad.yml', broken)).toEqual([expect.stringMatching(/^bad\.yml: line 4: did not find expected node content/)]);
  });
});

describe('the release workflow', () => {
  it('builds and smoke-tests on macOS, Windows and Linux, under xvfb on Linux, signing only with secrets', async () => {
    const text = await readFile((await workflowFiles()).find((file) => file.endsWith('release.yml')) ?? '', 'utf8');
    expect(text).toMatch(/os: \[macos-latest, windows-latest, ubuntu-latest\]/);
    expect(text).toContain('npx electron-builder --config electron-builder.yml --publish "$PUBLISH"');
    expect(text).toContain('xvfb-run -a npx vitest run --config test/electron/vitest.config.ts');
    // A checkout under Electron loads better-sqlite3 from .electron-native/, never a rebuilt node_modules.
    const smoke = text.slice(text.indexOf('- name: Smoke test in Electron'));
    expect(smoke.indexOf('node --import tsx scripts/prepare-electron.ts')).toBeGreaterThan(0);
    expect(smoke.indexOf('node --import tsx scripts/prepare-electron.ts')).toBeLessThan(
      smoke.indexOf('npx vitest run --config test/electron/vitest.config.ts'),
    );
    expect(text).not.toContain('@electron/rebuild --force');
    expect(text).toContain('export CSC_IDENTITY_AUTO_DISCOVERY=false');
    expect(text).toMatch(/HAS_MAC_SIGNING: \$\{\{ secrets\.MAC_CSC_LINK != '' \}\}/);
    expect(text).toMatch(/if: runner\.os == 'macOS' && env\.HAS_MAC_NOTARIZING == 'true'/);
  });
});
