/**
 * Draws the app icon and writes every format electron-builder needs:
 *   resources/icon.png (512), resources/icons/<n>x<n>.png (Linux),
 *   resources/icon.ico (Windows, PNG entries), resources/icon.icns (macOS, PNG entries).
 * Pure Node (zlib only), so the icons are reproducible without ImageMagick.
 * Run: npx tsx scripts/make-icons.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";

type Rgba = [number, number, number, number];

// ------------------------------------------------------------------ shapes (signed distances, unit square)

function roundedBox(x: number, y: number, half: number, radius: number): number {
  const qx = Math.abs(x - 0.5) - half + radius;
  const qy = Math.abs(y - 0.5) - half + radius;
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

function capsule(x: number, y: number, ax: number, ay: number, bx: number, by: number, r: number): number {
  const px = x - ax;
  const py = y - ay;
  const dx = bx - ax;
  const dy = by - ay;
  const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * h, py - dy * h) - r;
}

const mix = (a: number, b: number, t: number) => a + (b - a) * t;

/** Colour of the icon at (x, y) in [0,1]², before anti-aliasing. */
function shade(x: number, y: number): Rgba {
  if (roundedBox(x, y, 0.45, 0.1) > 0) return [0, 0, 0, 0];
  // Background: slate, lighter at the top.
  let rgb: [number, number, number] = [mix(51, 17, y), mix(65, 24, y), mix(85, 39, y)];
  // A prompt chevron and a cursor bar: the agent at work in a terminal-like workspace.
  const stroke = 0.05;
  const chevron = Math.min(capsule(x, y, 0.27, 0.33, 0.45, 0.5, stroke), capsule(x, y, 0.45, 0.5, 0.27, 0.67, stroke));
  const cursor = capsule(x, y, 0.53, 0.67, 0.73, 0.67, stroke);
  if (Math.min(chevron, cursor) <= 0) rgb = [56, 189, 248];
  return [rgb[0], rgb[1], rgb[2], 255];
}

/** RGBA pixels of a size×size icon, 4×4 supersampled. */
export function renderIcon(size: number): Buffer {
  const out = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = shade((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          r += c[0] * c[3];
          g += c[1] * c[3];
          b += c[2] * c[3];
          a += c[3];
        }
      }
      const o = (py * size + px) * 4;
      out[o] = a === 0 ? 0 : Math.round(r / a);
      out[o + 1] = a === 0 ? 0 : Math.round(g / a);
      out[o + 2] = a === 0 ? 0 : Math.round(b / a);
      out[o + 3] = Math.round(a / (n * n));
    }
  }
  return out;
}

// ------------------------------------------------------------------ encoders

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export function encodePng(size: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

/** ICO with PNG-compressed entries (supported since Windows Vista). */
export function encodeIco(entries: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(entries.length, 4);
  const dir = Buffer.alloc(16 * entries.length);
  let offset = 6 + dir.length;
  entries.forEach((e, i) => {
    const o = i * 16;
    dir[o] = e.size >= 256 ? 0 : e.size;
    dir[o + 1] = e.size >= 256 ? 0 : e.size;
    dir.writeUInt16LE(1, o + 4); // planes
    dir.writeUInt16LE(32, o + 6); // bits per pixel
    dir.writeUInt32LE(e.png.length, o + 8);
    dir.writeUInt32LE(offset, o + 12);
    offset += e.png.length;
  });
  return Buffer.concat([header, dir, ...entries.map((e) => e.png)]);
}

const ICNS_TYPES: Readonly<Record<number, string>> = { 32: "ic11", 64: "ic12", 128: "ic07", 256: "ic08", 512: "ic09", 1024: "ic10" };

/** ICNS with PNG entries (macOS 10.7+). */
export function encodeIcns(entries: ReadonlyArray<{ size: number; png: Buffer }>): Buffer {
  const parts = entries
    .filter((e) => ICNS_TYPES[e.size] !== undefined)
    .map((e) => {
      const head = Buffer.alloc(8);
      head.write(ICNS_TYPES[e.size], 0, "ascii");
      head.writeUInt32BE(e.png.length + 8, 4);
      return Buffer.concat([head, e.png]);
    });
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.write("icns", 0, "ascii");
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

function main(): void {
  const root = join(import.meta.dirname, "..", "resources");
  mkdirSync(join(root, "icons"), { recursive: true });
  const pngs = new Map<number, Buffer>();
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) pngs.set(size, encodePng(size, renderIcon(size)));
  const png = (size: number): Buffer => {
    const p = pngs.get(size);
    if (p === undefined) throw new Error(`no ${size}px icon`);
    return p;
  };
  writeFileSync(join(root, "icon.png"), png(512));
  for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) writeFileSync(join(root, "icons", `${size}x${size}.png`), png(size));
  writeFileSync(join(root, "icon.ico"), encodeIco([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, png: png(size) }))));
  writeFileSync(join(root, "icon.icns"), encodeIcns([32, 64, 128, 256, 512, 1024].map((size) => ({ size, png: png(size) }))));
  console.log(`icons written to ${root}`);
}

main();
