/**
 * The parts of node's IncomingMessage that latchkey reads, as a structural type: node's own
 * requests (and Express's) satisfy it, and so does the view of a request under a framework's
 * mount (mount.ts). The public functions take node's own classes.
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array> {
  method?: string
  url?: string
  headers: { host?: string; [name: string]: string | string[] | undefined }
  socket: { remoteAddress?: string; encrypted?: boolean }
}
