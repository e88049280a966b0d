import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';
import { iconOutputs, type IconOutput } from './icon-set.js';

/**
 * `npm run icons`: every icon of the app from build/icon.svg (see icon-set.ts for what and why).
 * resvg rasterises the SVG (a Rust renderer, no system libraries, the same pixels on every OS);
 * png2icons packs the .icns and .ico files. The results are committed, so packaging needs no step
 * of its own; run this after changing the SVG, and the release workflow runs it before building.
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export function renderPng(svg: string, size: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' }).render().asPng();
}

export function renderOutput(output: IconOutput): Buffer {
  if (output.kind === 'png') return renderPng(output.svg, output.size);
  const png = renderPng(output.svg, output.renderSize);
  const packed = output.kind === 'icns' ? png2icons.createICNS(png, png2icons.BICUBIC2, 0) : png2icons.createICO(png, png2icons.BICUBIC2, 0, true, true);
  if (packed === null) throw new Error(`png2icons could not make ${output.file}`);
  return packed;
}

async function main(): Promise<void> {
  const source = await readFile(join(repoRoot, 'build', 'icon.svg'), 'utf8');
  for (const output of iconOutputs(source)) {
    const target = join(repoRoot, output.file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, renderOutput(output));
    process.stdout.write(`${output.file}\n`);
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
