/**
 * Makes a browser's screenshot small enough to commit: the PNG Chromium writes (8-bit RGB or RGBA,
 * not interlaced) re-encoded with a palette of the page's most frequent colours. A page of flat
 * colours and text keeps its look at a third of the size or less.
 */
import { deflateSync, inflateSync } from 'node:zlib'

const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])

interface Pixels {
  width: number
  height: number
  /** RGB, 3 bytes a pixel (alpha dropped: screenshots are opaque). */
  rgb: Buffer
}

function decode(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(signature)) throw new Error('not a PNG')
  let width = 0
  let height = 0
  let channels = 0
  const data: Buffer[] = []
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const body = png.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      const [depth, colour, , , interlace] = body.subarray(8)
      channels = colour === 2 ? 3 : colour === 6 ? 4 : 0
      if (depth !== 8 || !channels || interlace) throw new Error(`unexpected PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`)
    }
    if (type === 'IDAT') data.push(body)
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  const rows = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1))
    const out = rows.subarray(y * stride, (y + 1) * stride)
    const above = y ? rows.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride)
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[x - channels] : 0
      const b = above[x]
      const c = x >= channels ? above[x - channels] : 0
      const predict = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c)
      out[x] = (line[x] + predict) & 255
    }
  }
  const rgb = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) rows.copy(rgb, i * 3, i * channels, i * channels + 3)
  return { width, height, rgb }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** The `size` most frequent colours (in buckets of 5 bits a channel, each its pixels' average), and each pixel's index. */
function quantize({ width, height, rgb }: Pixels, size: number): { palette: Buffer; indexes: Buffer } {
  const count = new Uint32Array(1 << 15)
  const sums = new Float64Array(3 << 15)
  const bucket = (i: number) => ((rgb[i] >> 3) << 10) | ((rgb[i + 1] >> 3) << 5) | (rgb[i + 2] >> 3)
  for (let i = 0; i < rgb.length; i += 3) {
    const k = bucket(i)
    count[k]++
    for (let c = 0; c < 3; c++) sums[k * 3 + c] += rgb[i + c]
  }
  const top = [...count.keys()].filter((k) => count[k]).sort((a, b) => count[b] - count[a]).slice(0, size)
  const palette = Buffer.alloc(top.length * 3)
  top.forEach((k, n) => {
    for (let c = 0; c < 3; c++) palette[n * 3 + c] = Math.round(sums[k * 3 + c] / count[k])
  })
  // Each bucket's colour: its own palette entry, else the entry nearest its pixels' average.
  const nearest = new Int16Array(1 << 15).fill(-1)
  top.forEach((k, n) => (nearest[k] = n))
  const indexes = Buffer.alloc(width * height)
  for (let i = 0, p = 0; i < rgb.length; i += 3, p++) {
    const k = bucket(i)
    if (nearest[k] < 0) {
      const average = [0, 1, 2].map((c) => sums[k * 3 + c] / count[k])
      let best = 0
      let bestDistance = Infinity
      for (let n = 0; n < top.length; n++) {
        const d = (palette[n * 3] - average[0]) ** 2 + (palette[n * 3 + 1] - average[1]) ** 2 + (palette[n * 3 + 2] - average[2]) ** 2
        if (d < bestDistance) [best, bestDistance] = [n, d]
      }
      nearest[k] = best
    }
    indexes[p] = nearest[k]
  }
  return { palette, indexes }
}

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(body.length)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])))
  return Buffer.concat([head, body, crc])
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 255] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** The screenshot again, with at most `colours` colours (up to 256). */
export function smallPng(png: Buffer, colours = 256): Buffer {
  const pixels = decode(png)
  const { palette, indexes } = quantize(pixels, colours)
  const { width, height } = pixels
  const rows = Buffer.alloc((width + 1) * height)
  for (let y = 0; y < height; y++) indexes.copy(rows, y * (width + 1) + 1, y * width, (y + 1) * width)
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 3, 0, 0, 0], 8)
  return Buffer.concat([signature, chunk('IHDR', header), chunk('PLTE', palette), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}
