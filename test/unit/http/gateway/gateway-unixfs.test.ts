import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GC, storeFromCars } from '../../content/read/fixture-store.js';
import { startGateway, type Harness } from './gateway-harness.js';

const ROOT = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
const FILE = 'bafkreialihlqnf5uwo4byh4n3cmwlntwqzxxs2fg5vanqdi3d7tb2l5xkm';
const [R1, R2, R3, R4, F] = [
  'bafybeib3ffl2teiqdncv3mkz4r23b5ctrwkzrrhctdbne6iboayxuxk5ui',
  'bafybeih2w7hjocxjg6g2ku25hvmd53zj7og4txpby3vsusfefw5rrg5sii',
  'bafybeiawdvhmjcz65x5egzx4iukxc72hg4woks6v6fvgyupiyt3oczk5ja',
  'bafybeifq2rzpqnqrsdupncmkmhs3ckxxjhuvdcbvydkgvch3ms24k5lo7q',
  'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
];
const IMMUTABLE = 'public, max-age=29030400, immutable';

let gw: Harness;

beforeAll(async () => {
  const store = await storeFromCars(
    `${GC}dir_listing/fixtures.car`,
    `${GC}gateway-cache/fixtures.car`,
    `${GC}path_gateway_unixfs/dir-with-percent-encoded-filename.car`,
    `${GC}path_gateway_unixfs/symlink.car`,
    `${GC}path_gateway_unixfs/dir-with-files.car`,
    `${GC}trustless_gateway_car/single-layer-hamt-with-multi-block-files.car`,
    'kubo/test/cli/fixtures/TestGatewayHAMTDirectory.car',
  );
  gw = await startGateway(store);
});

afterAll(async () => {
  await gw.close();
});

describe('gateway: directory listings', () => {
  it('lists the content root without a parent link', async () => {
    const res = await gw.get(`/ipfs/${ROOT}/`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Index of');
    expect(res.text).not.toContain(`<a href="/ipfs/${ROOT}/">..</a>`);
    expect(res.text).not.toContain('>..</a>');
  });

  it('redirects a directory without trailing slash, percent-encoding UTF-8 names', async () => {
    const res = await gw.get(`/ipfs/${ROOT}/%C4%85/%C4%99?x=1`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`/ipfs/${ROOT}/%C4%85/%C4%99/?x=1`);
    // The path stays as sent (here with lower-case escapes): a signature over it must verify after the redirect.
    const lower = await gw.get(`/ipfs/${ROOT}/%c4%85?x=1`);
    expect(lower.status).toBe(301);
    expect(lower.headers.location).toBe(`/ipfs/${ROOT}/%c4%85/?x=1`);
    const top = await gw.get(`/ipfs/${ROOT}`);
    expect(top.status).toBe(301);
    expect(top.headers.location).toBe(`/ipfs/${ROOT}/`);
  });

  it('renders breadcrumbs, parent, name and hash links of a UTF-8 subdirectory', async () => {
    const res = await gw.get(`/ipfs/${ROOT}/%C4%85/%C4%99/`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toContain('"DirIndex-');
    expect(res.headers['cache-control']).toBeUndefined();
    expect(res.text).toContain('Index of');
    expect(res.text).toContain(`/ipfs/<a href="/ipfs/${ROOT}">${ROOT}</a>/<a href="/ipfs/${ROOT}/%C4%85">ą</a>/<a href="/ipfs/${ROOT}/%C4%85/%C4%99">ę</a>`);
    expect(res.text).toContain(`<a href="/ipfs/${ROOT}/%C4%85/%C4%99/..">..</a>`);
    expect(res.text).toContain(`<a href="/ipfs/${ROOT}/%C4%85/%C4%99/file-%C5%BA%C5%82.txt">file-źł.txt</a>`);
    expect(res.text).toContain(`<a class="ipfs-hash" translate="no" href="/ipfs/${FILE}?filename=file-%25C5%25BA%25C5%2582.txt">`);
  });

  it('answers 404 for a missing name', async () => {
    const res = await gw.get(`/ipfs/${ROOT}/i-do-not-exist`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ code: 404 });
  });

  it('lists a HAMT directory and the 10k HAMT without its child blocks', async () => {
    const hamt = await gw.get('/ipfs/bafybeidbclfqleg2uojchspzd4bob56dqetqjsj27gy2cq3klkkgxtpn4i/');
    expect(hamt.status).toBe(200);
    expect(hamt.text.match(/class="ipfs-hash"/g)).toHaveLength(1000 + 1);
    const big = await gw.get('/ipfs/bafybeiggvykl7skb2ndlmacg2k5modvudocffxjesexlod2pfvg5yhwrqm/');
    expect(big.status).toBe(200);
    expect(big.text).toContain('>6993.png</a>');
    expect(big.text).toContain('>10100.png</a>');
    expect(big.text.match(/<tr>/g)).toHaveLength(10100);
    expect(big.text.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('shows symlinks in listings and serves their target text', async () => {
    const root = 'QmWvY6FaqFMS89YAQ9NAPjVP4WZKA1qbHbicc9HeSKQTgt';
    const listing = await gw.get(`/ipfs/${root}/`);
    expect(listing.text).toContain('>foo<');
    expect(listing.text).toContain('>bar<');
    const bar = await gw.get(`/ipfs/${root}/bar`);
    expect(bar.status).toBe(200);
    expect(bar.text).toBe('foo');
    const raw = await gw.get(`/ipfs/${root}?format=raw`);
    expect(raw.status).toBe(200);
    expect(raw.body.byteLength).toBe(94);
  });
});

describe('gateway: caching headers', () => {
  it('marks a generated listing with DirIndex Etag and no immutable cache', async () => {
    const res = await gw.get(`/ipfs/${R1}/root2/root3/`);
    expect(res.status).toBe(200);
    expect(res.headers['x-ipfs-path']).toBe(`/ipfs/${R1}/root2/root3/`);
    expect(res.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3}`);
    expect(res.headers.etag).toMatch(new RegExp(`DirIndex-.*_CID-${R3}`));
    expect(res.headers['cache-control']).toBeUndefined();
    const again = await gw.get(`/ipfs/${R1}/root2/root3/`, { 'if-none-match': String(res.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    const weak = await gw.get(`/ipfs/${R1}/root2/root3/`, { 'if-none-match': `W/${String(res.headers.etag)}` });
    expect(weak.status).toBe(304);
  });

  it('serves index.html for a directory with the directory Etag', async () => {
    const res = await gw.get(`/ipfs/${R1}/root2/root3/root4/`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello\n');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3},${R4}`);
    expect(res.headers.etag).toBe(`"${R4}"`);
    const redirect = await gw.get(`/ipfs/${R1}/root2/root3/root4`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`/ipfs/${R1}/root2/root3/root4/`);
  });

  it('serves a file with immutable caching, every root and a CID Etag; 304 variants', async () => {
    const path = `/ipfs/${R1}/root2/root3/root4/index.html`;
    const res = await gw.get(path);
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello\n');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['x-ipfs-roots']).toBe(`${R1},${R2},${R3},${R4},${F}`);
    expect(res.headers.etag).toBe(`"${F}"`);
    for (const tag of [`"${F}"`, `"fakeEtag1", "fakeEtag2", "${F}"`, `W/"${F}"`, '*']) {
      const cached = await gw.get(path, { 'if-none-match': tag });
      expect(cached.status, tag).toBe(304);
      expect(cached.headers.etag).toBe(`"${F}"`);
    }
    expect((await gw.get(path, { 'if-none-match': '"other"' })).status).toBe(200);
    expect((await gw.get(`/ipfs/${R1}/root2/root3/root4/`, { 'if-none-match': `"${R4}"` })).status).toBe(304);
  });

  it('returns the raw dag-pb block of a directory', async () => {
    const res = await gw.get(`/ipfs/${R1}/root2/root3/root4/?format=raw`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body.toString('hex')).toBe(
      '12340a24015512205891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03120a696e6465782e68746d6c18060a020801',
    );
  });

  it('honours only-if-cached', async () => {
    const held = await gw.get(`/ipfs/${R1}/root2/root3/root4/?format=raw`, { 'cache-control': 'only-if-cached' });
    expect(held.status).toBe(200);
    const missing = await gw.get('/ipfs/QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN', { 'cache-control': 'only-if-cached' });
    expect(missing.status).toBe(412);
    expect(JSON.parse(missing.text)).toMatchObject({ code: 412, error: 'not_cached' });
    const head = await gw.get('/ipfs/QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN', { 'cache-control': 'only-if-cached' }, 'HEAD');
    expect(head.status).toBe(412);
  });
});

describe('gateway: names, files and bad input', () => {
  it('decodes %25 to a literal % and keeps + and =', async () => {
    const res = await gw.get('/ipfs/bafybeig675grnxcmshiuzdaz2xalm6ef4thxxds6o6ypakpghm5kghpc34/Portugal%252C+Espa%C3%B1a=Peninsula%20Ib%C3%A9rica.txt');
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello from a percent encoded filename\n');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('serves identity CIDs without any block', async () => {
    const res = await gw.get('/ipfs/bafkqaf3imvwgy3zaneqgc3janfxgy2lomvscay3jmqfa');
    expect(res.status).toBe(200);
    expect(res.text).toBe('hello i am inlined cid\n');
  });

  it('sets Content-Disposition from filename and download', async () => {
    const inline = await gw.get(`/ipfs/${FILE}?filename=report.txt`);
    expect(inline.headers['content-disposition']).toBe('inline; filename="report.txt"');
    const utf = await gw.get(`/ipfs/${FILE}?filename=${encodeURIComponent('testтест.txt')}&download=true`);
    expect(utf.headers['content-disposition']).toBe(`attachment; filename="test____.txt"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.txt`);
    expect(utf.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const path = '/ipfs/bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy/multiblock.txt';
    const get = await gw.get(path);
    const head = await gw.get(path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe('1026');
    expect(get.body.byteLength).toBe(1026);
    for (const name of ['etag', 'content-type', 'cache-control', 'x-ipfs-roots', 'x-ipfs-path']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it('rejects malformed CIDs, unsafe paths and unknown formats with 400', async () => {
    for (const path of [
      '/ipfs/not-a-cid',
      `/ipfs/${ROOT}/../x`,
      `/ipfs/${ROOT}/./x`,
      `/ipfs/${ROOT}/a%00b`,
      `/ipfs/${ROOT}//api`,
      `/ipfs/${ROOT}?format=zip`,
      `/ipfs/${ROOT}?format=ipns-record`,
      `/ipfs/${ROOT}?format=car&dag-scope=some`,
      `/ipfs/${ROOT}?format=car&entity-bytes=1:2`,
      '/ipfs/',
    ]) {
      const res = await gw.get(path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.text), path).toMatchObject({ code: 400 });
    }
    // Broken percent-encoding is refused by Fastify's router before the gateway sees it (FST_ERR_BAD_URL).
    expect((await gw.get(`/ipfs/${ROOT}/%E0%A4%A`)).status).toBe(400);
  });

  it('answers 404 for content not held locally', async () => {
    const res = await gw.get('/ipfs/QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN');
    expect(res.status).toBe(404);
    const car = await gw.get('/ipfs/QmYzfKSE55XCjD1MW128RfciAf2DViABhEiXfgVFMabSjN?format=car');
    expect(car.status).toBe(404);
  });
});
