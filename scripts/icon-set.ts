/**
 * Every icon the desktop app ships, made from one source, build/icon.svg: the app icon (macOS .icns,
 * Windows .ico, the Linux PNG set) as drawn there, and the tray icons, which take the source's glyph
 * (the cube, `<g id="glyph" data-box="x y w h">`) on its own and add a badge per state:
 * - macOS: template images (black and alpha only; the menu bar tints them for light and dark), the
 *   badge cut out of the glyph so it reads without colour;
 * - Windows and Linux: colour, with a white rim around the glyph and the badge so they stand out on
 *   dark panels as well as light ones.
 * Pure (SVG text in, SVG text out); scripts/icons.ts renders and writes.
 */
export const TRAY_STATES = ['idle', 'syncing', 'paused', 'error'] as const;
export type TrayState = (typeof TRAY_STATES)[number];

export interface Glyph {
  /** The glyph group's inner markup (its paths, with their classes). */
  readonly markup: string;
  /** Its square in the source's coordinates: x, y, width, height. */
  readonly box: readonly [number, number, number, number];
}

export function readGlyph(source: string): Glyph {
  const match = /<g\s+id="glyph"\s+data-box="([\d.\s]+)"\s*>([\s\S]*?)<\/g>/.exec(source);
  if (match === null) throw new Error('build/icon.svg has no <g id="glyph" data-box="x y w h"> group');
  const numbers = (match[1] ?? '').trim().split(/\s+/).map(Number);
  if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n)) || (numbers[2] ?? 0) <= 0 || (numbers[3] ?? 0) <= 0) {
    throw new Error(`the glyph's data-box must be four numbers "x y w h", got "${match[1] ?? ''}"`);
  }
  return { markup: (match[2] ?? '').trim(), box: numbers as unknown as [number, number, number, number] };
}

export type TrayStyle = 'template' | 'colour';

const COLOURS = {
  glyphSide: '#1f6feb',
  glyphTop: '#4a8cf0',
  rim: '#ffffff',
  syncing: '#1f6feb',
  paused: '#b45309',
  error: '#d92d20',
} as const;

/** The badge's symbol, centred on 0,0 in a disc of radius 150 (the glyph box's units). */
function badgeSymbol(state: Exclude<TrayState, 'idle'>): string {
  switch (state) {
    case 'syncing':
      return (
        '<path d="M 0 -72 A 72 72 0 1 1 -72 0" fill="none" stroke-width="38" stroke-linecap="round"/>' +
        '<path d="M -122 6 L -72 -62 L -22 6 Z" stroke="none"/>'
      );
    case 'paused':
      return '<rect x="-64" y="-70" width="42" height="140" rx="10" stroke="none"/><rect x="22" y="-70" width="42" height="140" rx="10" stroke="none"/>';
    case 'error':
      return '<rect x="-22" y="-88" width="44" height="112" rx="16" stroke="none"/><circle cx="0" cy="64" r="26" stroke="none"/>';
  }
}

/** A tray icon as SVG: the glyph's box as the view box, with the state's badge at its lower right. */
export function traySvg(glyph: Glyph, style: TrayStyle, state: TrayState): string {
  const [x, y, w, h] = glyph.box;
  const rimWidth = w * 0.06;
  const badgeR = w * 0.23;
  // Inside the box with its rim: nothing of the badge is cut off at the icon's edge.
  const cx = x + w - badgeR - rimWidth * 0.6;
  const cy = y + h - badgeR - rimWidth * 0.6;
  const badge = state === 'idle' ? null : state;
  const scale = badgeR / 150;
  const symbol = badge === null ? '' : `<g transform="translate(${cx} ${cy}) scale(${scale})">${badgeSymbol(badge)}</g>`;
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${w} ${h}">`;
  // Around the badge, a ring cut out of the glyph, so the badge reads on its own (and no sliver of a face shows beside it).
  const cut =
    badge === null
      ? ''
      : `<mask id="cut"><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/><circle cx="${cx}" cy="${cy}" r="${badgeR * 1.3}" fill="#000"/></mask>`;
  const glyphGroup = (attributes: string) => `<g${attributes}${badge === null ? '' : ' mask="url(#cut)"'}>${glyph.markup}</g>`;
  if (style === 'template') {
    // Black with alpha only: the top face lighter through alpha, the badge's symbol cut out of its disc.
    const symbolCut =
      badge === null
        ? ''
        : `<mask id="symbol"><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/><g fill="#000" stroke="#000">${symbol}</g></mask>`;
    return [
      open,
      '<style>.face-top{fill:#000;fill-opacity:0.55}.face-side{fill:#000}</style>',
      `<defs>${cut}${symbolCut}</defs>`,
      glyphGroup(''),
      badge === null ? '' : `<circle cx="${cx}" cy="${cy}" r="${badgeR}" fill="#000" mask="url(#symbol)"/>`,
      '</svg>',
    ].join('');
  }
  return [
    open,
    `<style>.face-top{fill:${COLOURS.glyphTop}}.face-side{fill:${COLOURS.glyphSide}}.rim .face-top,.rim .face-side{fill:${COLOURS.rim};stroke:${COLOURS.rim};stroke-width:${rimWidth};stroke-linejoin:round}</style>`,
    `<defs>${cut}</defs>`,
    glyphGroup(' class="rim"'),
    glyphGroup(''),
    badge === null
      ? ''
      : `<circle cx="${cx}" cy="${cy}" r="${badgeR}" fill="${COLOURS[badge]}" stroke="${COLOURS.rim}" stroke-width="${rimWidth}"/><g fill="#fff" stroke="#fff">${symbol}</g>`,
    '</svg>',
  ].join('');
}

/** One file `npm run icons` writes, relative to the repository root. */
export type IconOutput =
  | { readonly file: string; readonly kind: 'png'; readonly svg: string; readonly size: number }
  | { readonly file: string; readonly kind: 'icns' | 'ico'; readonly svg: string; readonly renderSize: number };

/** Sizes of the Linux icon set (electron-builder's build/icons/<N>x<N>.png). */
export const LINUX_ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;

export function iconOutputs(source: string): IconOutput[] {
  const glyph = readGlyph(source);
  const outputs: IconOutput[] = [
    { file: 'build/icon.png', kind: 'png', svg: source, size: 1024 },
    { file: 'build/icon.icns', kind: 'icns', svg: source, renderSize: 1024 },
    { file: 'build/icon.ico', kind: 'ico', svg: source, renderSize: 256 },
    ...LINUX_ICON_SIZES.map((size) => ({ file: `build/icons/${size}x${size}.png`, kind: 'png' as const, svg: source, size })),
  ];
  for (const state of TRAY_STATES) {
    const template = traySvg(glyph, 'template', state);
    const colour = traySvg(glyph, 'colour', state);
    outputs.push(
      { file: `build/tray/mac/${state}Template.png`, kind: 'png', svg: template, size: 16 },
      { file: `build/tray/mac/${state}Template@2x.png`, kind: 'png', svg: template, size: 32 },
      { file: `build/tray/windows/${state}.ico`, kind: 'ico', svg: colour, renderSize: 256 },
      { file: `build/tray/linux/${state}.png`, kind: 'png', svg: colour, size: 32 },
      { file: `build/tray/linux/${state}@2x.png`, kind: 'png', svg: colour, size: 64 },
    );
  }
  return outputs;
}
