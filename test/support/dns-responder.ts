/**
 * A tiny authoritative DNS server over UDP for tests: answers TXT questions from a map the test
 * fills (name → records), NXDOMAIN for a name it lacks, SERVFAIL for one set to 'servfail'. Each
 * long record is sent in chunks of 255, as a real server would. Only what node:dns asks is read.
 */
import { createSocket } from 'node:dgram'
import type { AddressInfo } from 'node:net'

export interface DnsResponder {
  /** `127.0.0.1:port`, for `Resolver.setServers`. */
  address: string
  records: Map<string, string[] | 'servfail'>
  /** Every name asked, lowercase. */
  asked: string[]
  close(): Promise<void>
}

/** The question's name and where the question ends, or undefined for a packet that is not one. */
function question(packet: Buffer): { name: string; end: number } | undefined {
  const labels: string[] = []
  let at = 12
  while (at < packet.length) {
    const length = packet[at]!
    if (length === 0) return at + 5 <= packet.length ? { name: labels.join('.').toLowerCase(), end: at + 5 } : undefined
    if (length > 63) return undefined
    labels.push(packet.subarray(at + 1, at + 1 + length).toString('latin1'))
    at += 1 + length
  }
  return undefined
}

function txtData(record: string): Buffer {
  const bytes = Buffer.from(record, 'utf8')
  const chunks: Buffer[] = []
  for (let at = 0; at < bytes.length || at === 0; at += 255) {
    const part = bytes.subarray(at, at + 255)
    chunks.push(Buffer.from([part.length]), part)
    if (!bytes.length) break
  }
  return Buffer.concat(chunks)
}

function answer(packet: Buffer, records: DnsResponder['records'], asked: string[]): Buffer | undefined {
  if (packet.length < 12) return undefined
  const q = question(packet)
  if (!q) return undefined
  asked.push(q.name)
  const type = packet.readUInt16BE(q.end - 4)
  const found = records.get(q.name)
  const rcode = found === 'servfail' ? 2 : found ? 0 : 3
  const answers = Array.isArray(found) && type === 16 ? found : []
  const header = Buffer.alloc(12)
  packet.copy(header, 0, 0, 2)
  header[2] = 0x84 | (packet[2]! & 0x79) // QR, AA, the opcode and RD as asked
  header[3] = 0x80 | rcode // RA
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(answers.length, 6)
  const body = answers.map((record) => {
    const data = txtData(record)
    const rr = Buffer.alloc(12)
    rr.writeUInt16BE(0xc00c, 0) // the question's name
    rr.writeUInt16BE(16, 2)
    rr.writeUInt16BE(1, 4)
    rr.writeUInt32BE(60, 6)
    rr.writeUInt16BE(data.length, 10)
    return Buffer.concat([rr, data])
  })
  return Buffer.concat([header, packet.subarray(12, q.end), ...body])
}

export async function startDnsResponder(): Promise<DnsResponder> {
  const socket = createSocket('udp4')
  const records: DnsResponder['records'] = new Map()
  const asked: string[] = []
  socket.on('message', (packet, from) => {
    const reply = answer(packet, records, asked)
    if (reply) socket.send(reply, from.port, from.address)
  })
  await new Promise<void>((done) => socket.bind(0, '127.0.0.1', done))
  const { port } = socket.address() as AddressInfo
  return { address: `127.0.0.1:${port}`, records, asked, close: () => new Promise((done) => socket.close(() => done())) }
}
