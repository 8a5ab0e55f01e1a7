/**
 * The parts of node's IncomingMessage and ServerResponse that latchkey reads and writes, as
 * structural types: node's own objects (and Express's) satisfy them, and they need no @types/node.
 * `latchkey/node` types the same functions with node's own classes.
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array> {
  method?: string
  url?: string
  headers: { host?: string; [name: string]: string | string[] | undefined }
  socket: { remoteAddress?: string; encrypted?: boolean }
}

export interface NodeResponseLike {
  readonly headersSent: boolean
  statusCode: number
  getHeader(name: string): number | string | string[] | undefined
  setHeader(name: string, value: string | string[]): unknown
  end(body?: string): unknown
}
