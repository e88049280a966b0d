import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { iconOutputs, readGlyph, TRAY_STATES, traySvg, type TrayState } from '../../../scripts/icon-set.js';
import { renderOutput, renderPng } from '../../../scripts/icons.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const source = readFileSync(`${root}build/icon.svg`, 'utf8');
const glyph = readGlyph(source);

/** RGBA pixels of an SVG rendered at `size`. */
function pixels(svg: string, size: number): Uint8Array {
  const image = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render();
  expect(image.width).toBe(size);
  return image.pixels;
}

/** WCAG relative luminance of an sRGB colour. */
function luminance(r: number, g: number, b: number): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** The share of the icon's opaque pixels that stand out (contrast ≥ 3) against a panel of luminance `panel`. */
function visibleShare(rgba: Uint8Array, panel: number): number {
  let opaque = 0;
  let visible = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    if ((rgba[i + 3] ?? 0) < 200) continue;
    opaque += 1;
    if (contrast(luminance(rgba[i] ?? 0, rgba[i + 1] ?? 0, rgba[i + 2] ?? 0), panel) >= 3) visible += 1;
  }
  return opaque === 0 ? 0 : visible / opaque;
}

describe('the icon source', () => {
  it('has the glyph the tray icons draw, in a square box', () => {
    expect(glyph.box).toEqual([212, 210, 600, 600]);
    expect(glyph.markup).toContain('class="face-top"');
    expect(glyph.markup).toContain('class="face-side"');
  });

  it('refuses a source without the glyph group or with a bad box', () => {
    expect(() => readGlyph('<svg xmlns="http://www.w3.org/2000/svg"/>')).toThrow(/no <g id="glyph"/);
    expect(() => readGlyph('<svg><g id="glyph" data-box="1 2 3">x</g></svg>')).toThrow(/four numbers/);
    expect(() => readGlyph('<svg><g id="glyph" data-box="1 2 0 4">x</g></svg>')).toThrow(/four numbers/);
  });
});

describe('tray icons', () => {
  it('macOS templates are black and alpha only, and every state looks different', () => {
    const seen = new Set<string>();
    for (const state of TRAY_STATES) {
      const rgba = pixels(traySvg(glyph, 'template', state), 32);
      let drawn = 0;
      for (let i = 0; i < rgba.length; i += 4) {
        if (rgba[i + 3] === 0) continue;
        drawn += 1;
        expect([rgba[i], rgba[i + 1], rgba[i + 2]], `${state} pixel ${i / 4}`).toEqual([0, 0, 0]);
      }
      expect(drawn, state).toBeGreaterThan(200);
      seen.add(Buffer.from(rgba).toString('base64'));
    }
    expect(seen.size).toBe(TRAY_STATES.length);
  });

  it('colour icons stand out on a dark panel and on a light one', () => {
    for (const state of TRAY_STATES) {
      const rgba = pixels(traySvg(glyph, 'colour', state), 64);
      // Most of the icon against either: the glyph's blue and the badges read on white; the white rim reads on black.
      expect(visibleShare(rgba, luminance(255, 255, 255)), `${state} on light`).toBeGreaterThan(0.6);
      expect(visibleShare(rgba, luminance(0, 0, 0)), `${state} on dark`).toBeGreaterThan(0.15);
      expect(visibleShare(rgba, luminance(0x1e, 0x1e, 0x1e)), `${state} on a dark grey panel`).toBeGreaterThan(0.15);
    }
  });

  it('the badge colours tell the states apart', () => {
    const badgeColour = (state: TrayState) => {
      const rgba = pixels(traySvg(glyph, 'colour', state), 64);
      // A pixel on the badge's disc, between its centre symbol and its rim.
      const index = (Math.round(64 * 0.77) * 64 + Math.round(64 * 0.65)) * 4;
      return [rgba[index], rgba[index + 1], rgba[index + 2]].join(',');
    };
    const colours = new Set(['syncing', 'paused', 'error'].map((state) => badgeColour(state as TrayState)));
    expect(colours.size).toBe(3);
  });
});

describe('npm run icons', () => {
  const outputs = iconOutputs(source);

  it('writes every file the packaging and the tray read', () => {
    const files = outputs.map((output) => output.file);
    for (const needed of ['build/icon.icns', 'build/icon.ico', 'build/icon.png', 'build/icons/16x16.png', 'build/icons/1024x1024.png'])
      expect(files).toContain(needed);
    for (const state of TRAY_STATES) {
      expect(files).toEqual(
        expect.arrayContaining([
          `build/tray/mac/${state}Template.png`,
          `build/tray/mac/${state}Template@2x.png`,
          `build/tray/windows/${state}.ico`,
          `build/tray/linux/${state}.png`,
          `build/tray/linux/${state}@2x.png`,
        ]),
      );
    }
    // They are committed, so packaging needs no step of its own.
    for (const file of files) expect(existsSync(`${root}${file}`), file).toBe(true);
  });

  it('renders PNGs at their size and packs .icns and .ico files', () => {
    const png = renderPng(source, 48);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(48);
    const ico = outputs.find((output) => output.file === 'build/tray/windows/idle.ico');
    const icoBytes = renderOutput(ico ?? outputs[0]!);
    // ICONDIR: reserved 0, type 1 (icon), then the number of images.
    expect([icoBytes.readUInt16LE(0), icoBytes.readUInt16LE(2)]).toEqual([0, 1]);
    expect(icoBytes.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
    const icns = readFileSync(`${root}build/icon.icns`);
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
  });
});
