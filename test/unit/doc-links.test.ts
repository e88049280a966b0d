import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, linkTargets, repositoryDocs } from './doc-links.js';

/**
 * The README is a door into docs/ (issue 25, part 6): a link between them that leads nowhere is a fact
 * lost. Checked over the repository, and over known-bad documents to prove that each kind of break fails.
 */
describe('relative links in README.md and docs/*.md', () => {
  it('every one names a file that exists, and a heading of it when it names an anchor', () => {
    const docs = repositoryDocs();
    expect(docs.map((doc) => doc.path)).toContain('docs/architecture.md');
    expect(docs.flatMap((doc) => linkTargets(doc.text)).length).toBeGreaterThan(20);
    expect(brokenLinks(docs)).toEqual([]);
  });

  it('a link to a file that does not exist, or out of the repository, is reported', () => {
    const doc = { path: 'docs/a.md', text: '# A\n\nSee [the API](api-v2.md), [b](../../outside.md) and [ok](../README.md).\n' };
    expect(brokenLinks([doc])).toEqual([
      'docs/a.md: api-v2.md names docs/api-v2.md, which does not exist',
      'docs/a.md: ../../outside.md names ../outside.md, which does not exist',
    ]);
  });

  it('an anchor that no heading makes is reported, in the same file or another', () => {
    const a = {
      path: 'docs/a.md',
      text: '# A\n\n## The `pinfold` command\n\n[here](#the-pinfold-command), [gone](#the-cli), [b](b.md#two-machines-one-name), [b](b.md#one-machine)\n',
    };
    const b = { path: 'docs/b.md', text: '# B\n\n## Two machines, one name\n' };
    expect(brokenLinks([a, b])).toEqual([
      'docs/a.md: #the-cli names #the-cli, which no heading of docs/a.md makes',
      'docs/a.md: b.md#one-machine names #one-machine, which no heading of docs/b.md makes',
    ]);
  });

  it('links that wrap are read; examples in code, and links with a scheme, are not checked', () => {
    const doc = {
      path: 'docs/a.md',
      text: '# A\n\nsee [The\n  service process](nowhere.md) and [site](https://example.com/x.md)\n\n```md\n[x](missing.md)\n```\n\n`[y](missing.md)`\n',
    };
    expect(brokenLinks([doc])).toEqual(['docs/a.md: nowhere.md names docs/nowhere.md, which does not exist']);
  });

  it('anchors are made as GitHub makes them', () => {
    const anchors = headingAnchors('# Pinfold\n## Where it reaches out: flags, settings.json, offline\n## Notes\n## Notes\n```sh\n# a comment\n```\n');
    expect([...anchors]).toEqual(['pinfold', 'where-it-reaches-out-flags-settingsjson-offline', 'notes', 'notes-1']);
  });
});
