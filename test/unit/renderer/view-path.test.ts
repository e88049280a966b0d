/** The view page's `path`: only content on this service's gateway, read as strictly as an ipfs:// link. */
import { describe, expect, it } from 'vitest';
import { readViewPath, viewPagePath } from '../../../renderer/lib/view-path.js';

const CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
const NAME = 'k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx';

function problem(text: string | null): string {
  const input = readViewPath(text);
  if (!('problem' in input)) throw new Error(`${String(text)} was taken as ${input.target.path}`);
  return input.problem;
}

describe('readViewPath', () => {
  it('takes a CID or an IPNS name with a path below it, each segment encoded once, a directory slash kept', () => {
    expect(readViewPath(`/ipfs/${CID}`)).toEqual({ target: { path: `/ipfs/${CID}`, namespace: 'ipfs', root: CID, title: 'bafybeigdy…5fbzdi', within: '' } });
    expect(readViewPath(`/ipfs/${CID}/`)).toMatchObject({ target: { path: `/ipfs/${CID}/`, title: 'bafybeigdy…5fbzdi' } });
    expect(readViewPath(`/ipfs/${CID}/photos/a b.jpg`)).toMatchObject({ target: { path: `/ipfs/${CID}/photos/a%20b.jpg`, title: 'a b.jpg' } });
    expect(readViewPath(`/ipfs/${CID}/photos/a%20b.jpg`)).toMatchObject({ target: { path: `/ipfs/${CID}/photos/a%20b.jpg`, title: 'a b.jpg' } });
    expect(readViewPath(`/ipfs/${CID}/docs/`)).toMatchObject({ target: { path: `/ipfs/${CID}/docs/`, title: 'docs' } });
    // The heading's second line: the path inside the root, decoded, a folder's trailing slash kept (issue 26).
    expect(readViewPath(`/ipfs/${CID}/photos/a%20b.jpg`)).toMatchObject({ target: { title: 'a b.jpg', within: '/photos/a b.jpg' } });
    expect(readViewPath(`/ipfs/${CID}/docs/`)).toMatchObject({ target: { within: '/docs/' } });
    expect(readViewPath(`/ipfs/${CID}/`)).toMatchObject({ target: { within: '' } });
    expect(readViewPath(`/ipns/${NAME}/index.html`)).toMatchObject({ target: { path: `/ipns/${NAME}/index.html`, namespace: 'ipns', root: NAME } });
    expect(readViewPath('/ipns/Docs.Example.ORG/')).toMatchObject({
      target: { path: '/ipns/docs.example.org/', root: 'docs.example.org', title: 'docs.example.org' },
    });
  });

  it('refuses anything else with one sentence', () => {
    expect(problem(null)).toBe('This address names no content to show.');
    expect(problem('  ')).toBe('This address names no content to show.');
    for (const foreign of [
      `https://evil.example/ipfs/${CID}`,
      `//evil.example/ipfs/${CID}`,
      `ipfs://${CID}`,
      `javascript:alert(1)`,
      `\\\\evil.example/ipfs/${CID}`,
    ]) {
      expect(problem(foreign), foreign).toBe('Only content on this service can be shown here.');
    }
    for (const other of ['/pins', `/ipfs/`, `/ipfs`, `ipfs/${CID}`, `/IPFS/${CID}`, `/api/v0/cat?arg=${CID}`]) {
      expect(problem(other), other).toMatch(/^The address must name content as \/ipfs\/<CID> or \/ipns\/<name>/);
    }
    expect(problem('/ipfs/not-a-cid')).toBe('not-a-cid is not a valid CID.');
    expect(problem(`/ipfs/${NAME.slice(0, -3)}`)).toMatch(/is not a valid CID\.$/);
    expect(problem('/ipns/not_a name')).toBe('not_a name is not an IPNS name or a domain.');
    expect(problem('/ipns/localhost')).toBe('localhost is not an IPNS name or a domain.');
    for (const climb of ['..', '.', '%2e%2e', '%2E', 'a/../..']) expect(problem(`/ipfs/${CID}/${climb}/x`), climb).toMatch(/climbs out of its root/);
    expect(problem(`/ipfs/${CID}/a%2Fb`)).toMatch(/slash, backslash or control character/);
    expect(problem(`/ipfs/${CID}/a\\b`)).toMatch(/slash, backslash or control character/);
    expect(problem(`/ipfs/${CID}/a%00b`)).toMatch(/slash, backslash or control character/);
    expect(problem(`/ipfs/${CID}/a%zz`)).toMatch(/badly encoded/);
    expect(problem(`/ipfs/${CID}//a`)).toMatch(/empty path segment/);
    expect(problem(`/ipfs/${CID}/a?filename=x`)).toMatch(/no query or fragment/);
    expect(problem(`/ipfs/${CID}#top`)).toMatch(/no query or fragment/);
    expect(problem(`/ipfs/${CID}/${'a'.repeat(5000)}`)).toMatch(/longer than 4096 characters/);
  });

  it('gives the view page address of a content path', () => {
    expect(viewPagePath(`/ipfs/${CID}/a b`)).toBe(`/view?path=%2Fipfs%2F${CID}%2Fa+b`);
    expect(readViewPath(new URLSearchParams(viewPagePath(`/ipfs/${CID}/a b`).split('?')[1]).get('path'))).toMatchObject({ target: { title: 'a b' } });
  });
});
