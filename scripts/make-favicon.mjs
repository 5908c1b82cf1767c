#!/usr/bin/env node
// Writes public/favicon.ico (PNG images of 16, 32 and 48 px) from the shapes of public/icon.svg: three
// annotators' dots above a check mark on the accent blue. Run again after changing the icon.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BLUE = [0x24, 0x59, 0xb8];
const LIGHT = [0xd9, 0xea, 0xff];
const WHITE = [0xff, 0xff, 0xff];
const DOTS = [[9, 9], [16, 9], [23, 9]];
const CHECK = [[8.5, 19], [14, 24.5], [24, 14.5]];

function segmentDistance(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Colour of a point of the 32×32 design, or null outside the rounded square. */
function colourAt(x, y) {
  const r = 7;
  const cx = Math.min(Math.max(x, r), 32 - r);
  const cy = Math.min(Math.max(y, r), 32 - r);
  if (x < 0 || y < 0 || x > 32 || y > 32 || Math.hypot(x - cx, y - cy) > r) return null;
  if (segmentDistance(x, y, CHECK[0], CHECK[1]) <= 2 || segmentDistance(x, y, CHECK[1], CHECK[2]) <= 2) return WHITE;
  if (DOTS.some(([dx, dy]) => Math.hypot(x - dx, y - dy) <= 2.5)) return LIGHT;
  return BLUE;
}

/** RGBA pixels of a size×size rendering, 4×4 samples per pixel. */
function render(size) {
  const px = Buffer.alloc(size * size * 4);
  const s = 32 / size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0, 0];
      for (let j = 0; j < 4; j++) {
        for (let i = 0; i < 4; i++) {
          const c = colourAt((x + (i + 0.5) / 4) * s, (y + (j + 0.5) / 4) * s);
          if (!c) continue;
          sum[0] += c[0];
          sum[1] += c[1];
          sum[2] += c[2];
          sum[3]++;
        }
      }
      const o = (y * size + x) * 4;
      if (sum[3] > 0) for (let k = 0; k < 3; k++) px[o + k] = Math.round(sum[k] / sum[3]);
      px[o + 3] = Math.round((255 * sum[3]) / 16);
    }
  }
  return px;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function png(size) {
  const px = render(size);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) px.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

const images = [16, 32, 48].map((size) => ({ size, data: png(size) }));
const header = Buffer.alloc(6 + 16 * images.length);
header.writeUInt16LE(1, 2); // type: icon
header.writeUInt16LE(images.length, 4);
let offset = header.length;
images.forEach(({ size, data }, k) => {
  const e = 6 + 16 * k;
  header.writeUInt8(size, e);
  header.writeUInt8(size, e + 1);
  header.writeUInt16LE(1, e + 4); // planes
  header.writeUInt16LE(32, e + 6); // bits per pixel
  header.writeUInt32LE(data.length, e + 8);
  header.writeUInt32LE(offset, e + 12);
  offset += data.length;
});
const file = path.join(root, "public", "favicon.ico");
fs.writeFileSync(file, Buffer.concat([header, ...images.map((i) => i.data)]));
console.log(`wrote ${path.relative(root, file)} (${offset} bytes)`);
