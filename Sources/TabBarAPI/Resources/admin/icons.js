// Tab bar glyphs for common SF Symbol names, drawn as SVG; any other name gets a letter in a rounded square.

const SVG = 'http://www.w3.org/2000/svg';

const gearSpokes = Array.from({ length: 8 }, (_, i) => {
  const angle = (i * Math.PI) / 4;
  const at = (r) => [12 + r * Math.cos(angle), 12 + r * Math.sin(angle)].map((n) => n.toFixed(2));
  const [x1, y1] = at(6.5);
  const [x2, y2] = at(9.5);
  return ['line', { x1, y1, x2, y2 }];
});

const GLYPHS = {
  house: [['path', { d: 'M3 10.5 12 3l9 7.5' }], ['path', { d: 'M5 9v11h5v-6h4v6h5V9' }]],
  magnifyingglass: [['circle', { cx: 10.5, cy: 10.5, r: 6.5 }], ['path', { d: 'M15.5 15.5 21 21' }]],
  person: [['circle', { cx: 12, cy: 8, r: 4 }], ['path', { d: 'M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7' }]],
  bag: [['path', { d: 'M5 8h14l-1 13H6L5 8z' }], ['path', { d: 'M9 8V6a3 3 0 0 1 6 0v2' }]],
  cart: [
    ['path', { d: 'M2 3h3l2.4 12h11.1L21 7H6.2' }],
    ['circle', { cx: 9, cy: 19.5, r: 1.5 }],
    ['circle', { cx: 17, cy: 19.5, r: 1.5 }],
  ],
  gear: [['circle', { cx: 12, cy: 12, r: 3 }], ['circle', { cx: 12, cy: 12, r: 6.5 }], ...gearSpokes],
  bell: [['path', { d: 'M6 16v-5a6 6 0 0 1 12 0v5l2 2H4l2-2z' }], ['path', { d: 'M10 20a2 2 0 0 0 4 0' }]],
  heart: [
    ['path', { d: 'M12 20s-7.5-4.6-9-9.2C2 7.6 4.1 5 7 5c2 0 3.4 1.2 5 3 1.6-1.8 3-3 5-3 2.9 0 5 2.6 4 5.8-1.5 4.6-9 '
      + '9.2-9 9.2z' }],
  ],
  star: [['polygon', { points: '12,3 14.7,8.8 21,9.5 16.3,13.8 17.6,20 12,16.9 6.4,20 7.7,13.8 3,9.5 9.3,8.8' }]],
  'list.bullet': [
    ['circle', { cx: 5, cy: 6, r: 1.2, class: 'solid' }],
    ['circle', { cx: 5, cy: 12, r: 1.2, class: 'solid' }],
    ['circle', { cx: 5, cy: 18, r: 1.2, class: 'solid' }],
    ['path', { d: 'M9 6h11M9 12h11M9 18h11' }],
  ],
  'square.grid.2x2': [
    ['rect', { x: 3, y: 3, width: 7.5, height: 7.5, rx: 1.5 }],
    ['rect', { x: 13.5, y: 3, width: 7.5, height: 7.5, rx: 1.5 }],
    ['rect', { x: 3, y: 13.5, width: 7.5, height: 7.5, rx: 1.5 }],
    ['rect', { x: 13.5, y: 13.5, width: 7.5, height: 7.5, rx: 1.5 }],
  ],
  ellipsis: [
    ['circle', { cx: 5, cy: 12, r: 1.6, class: 'solid' }],
    ['circle', { cx: 12, cy: 12, r: 1.6, class: 'solid' }],
    ['circle', { cx: 19, cy: 12, r: 1.6, class: 'solid' }],
  ],
};

const ALIASES = { gearshape: 'gear', 'magnifyingglass.circle': 'magnifyingglass', 'person.crop.circle': 'person' };

/** The glyph for an SF Symbol name: exact, then without `.fill`, then its first segment (`house.fill` → house). */
export function glyphName(name) {
  const base = String(name || '').trim().toLowerCase().replace(/\.fill$/, '');
  if (GLYPHS[base]) return base;
  if (ALIASES[base]) return ALIASES[base];
  const first = base.split('.')[0];
  return GLYPHS[first] ? first : ALIASES[first] || null;
}

function element(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** An `<svg>` for the icon `name`; `fallbackText` gives the letter when the name is unknown or empty. */
export function iconElement(name, fallbackText = '?') {
  const svg = element('svg', { viewBox: '0 0 24 24', width: 24, height: 24, 'aria-hidden': 'true', class: 'glyph' });
  const glyph = glyphName(name);
  if (glyph) {
    for (const [tag, attributes] of GLYPHS[glyph]) svg.append(element(tag, attributes));
    return svg;
  }
  svg.append(element('rect', { x: 3, y: 3, width: 18, height: 18, rx: 5 }));
  const letter = element('text', { x: 12, y: 16.2, 'text-anchor': 'middle', class: 'letter' });
  letter.textContent = (String(name || '').trim() || fallbackText).charAt(0).toUpperCase();
  svg.append(letter);
  return svg;
}

/** The names with a glyph, for the icon fields' suggestions. */
export const glyphNames = Object.keys(GLYPHS);
